!> GPU timing for the example programs with CUDA events, called through bind(C) straight from
!> libcudart (tcgemm's C API has no timers, and needs none). Events are recorded on the stream the
!> kernels run on, so the measured interval covers exactly the queued launches, not host overhead.
module cuda_event_timer
  use, intrinsic :: iso_c_binding, only: c_int, c_float, c_ptr, c_null_ptr, c_associated, &
                                         c_f_pointer, c_char, c_size_t
  implicit none
  private

  public :: event_timer, timer_create, timer_start, timer_stop_ms, timer_destroy

  !> A pair of CUDA events bracketing the timed work.
  type :: event_timer
    type(c_ptr) :: start = c_null_ptr
    type(c_ptr) :: stop = c_null_ptr
  end type event_timer

  integer(c_int), parameter :: CUDA_SUCCESS = 0

  interface
    function cudaEventCreate(event) result(err) bind(C, name="cudaEventCreate")
      import :: c_int, c_ptr
      type(c_ptr), intent(out) :: event
      integer(c_int) :: err
    end function cudaEventCreate

    function cudaEventRecord(event, stream) result(err) bind(C, name="cudaEventRecord")
      import :: c_int, c_ptr
      type(c_ptr), value :: event, stream
      integer(c_int) :: err
    end function cudaEventRecord

    function cudaEventSynchronize(event) result(err) bind(C, name="cudaEventSynchronize")
      import :: c_int, c_ptr
      type(c_ptr), value :: event
      integer(c_int) :: err
    end function cudaEventSynchronize

    function cudaEventElapsedTime(ms, start, end) result(err) bind(C, name="cudaEventElapsedTime")
      import :: c_int, c_float, c_ptr
      real(c_float), intent(out) :: ms
      type(c_ptr), value :: start, end
      integer(c_int) :: err
    end function cudaEventElapsedTime

    function cudaEventDestroy(event) result(err) bind(C, name="cudaEventDestroy")
      import :: c_int, c_ptr
      type(c_ptr), value :: event
      integer(c_int) :: err
    end function cudaEventDestroy

    function cudaGetErrorString(err) result(str) bind(C, name="cudaGetErrorString")
      import :: c_int, c_ptr
      integer(c_int), value :: err
      type(c_ptr) :: str
    end function cudaGetErrorString

    function c_strlen(str) result(length) bind(C, name="strlen")
      import :: c_ptr, c_size_t
      type(c_ptr), value :: str
      integer(c_size_t) :: length
    end function c_strlen
  end interface

contains

  !> Stop the program with CUDA's message when a runtime call failed.
  subroutine check(err, what)
    integer(c_int), intent(in) :: err
    character(len=*), intent(in) :: what
    character(kind=c_char), pointer :: chars(:)
    character(len=:), allocatable :: text
    type(c_ptr) :: str
    integer :: i, length

    if (err == CUDA_SUCCESS) return
    str = cudaGetErrorString(err)
    length = int(c_strlen(str))
    call c_f_pointer(str, chars, [length])
    allocate(character(len=length) :: text)
    do i = 1, length
      text(i:i) = chars(i)
    end do
    error stop what // ' failed: ' // text
  end subroutine check

  !> Create the two events.
  subroutine timer_create(timer)
    type(event_timer), intent(out) :: timer
    call check(cudaEventCreate(timer%start), 'cudaEventCreate')
    call check(cudaEventCreate(timer%stop), 'cudaEventCreate')
  end subroutine timer_create

  !> Record the start event on `stream` (absent: the default stream).
  subroutine timer_start(timer, stream)
    type(event_timer), intent(in) :: timer
    type(c_ptr), intent(in), optional :: stream
    type(c_ptr) :: s
    s = c_null_ptr
    if (present(stream)) s = stream
    call check(cudaEventRecord(timer%start, s), 'cudaEventRecord')
  end subroutine timer_start

  !> Record the stop event, wait for it, and return the elapsed GPU time in milliseconds.
  function timer_stop_ms(timer, stream) result(ms)
    type(event_timer), intent(in) :: timer
    type(c_ptr), intent(in), optional :: stream
    real(c_float) :: ms
    type(c_ptr) :: s
    s = c_null_ptr
    if (present(stream)) s = stream
    call check(cudaEventRecord(timer%stop, s), 'cudaEventRecord')
    call check(cudaEventSynchronize(timer%stop), 'cudaEventSynchronize')
    call check(cudaEventElapsedTime(ms, timer%start, timer%stop), 'cudaEventElapsedTime')
  end function timer_stop_ms

  !> Destroy the events.
  subroutine timer_destroy(timer)
    type(event_timer), intent(inout) :: timer
    if (c_associated(timer%start)) call check(cudaEventDestroy(timer%start), 'cudaEventDestroy')
    if (c_associated(timer%stop)) call check(cudaEventDestroy(timer%stop), 'cudaEventDestroy')
    timer = event_timer()
  end subroutine timer_destroy
end module cuda_event_timer
