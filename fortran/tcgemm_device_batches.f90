!> Part of module tcgemm (fortran/tcgemm.f90 lists the parts): batches of device matrices.
!>
!> type(tcgemm_device_batch) is `count` equally shaped column-major real(real64) matrices in one
!> block of device memory, `stride` elements apart: the operand form of the device-resident
!> batched product (tcgemm_device_batched), so that a code keeps its element matrices on the GPU
!> and multiplies them again and again without host <-> device copies. This part holds the type,
!> its layout rules and what manages its memory: tcgemm_device_allocate from a shape,
!> tcgemm_device_deallocate and tcgemm_device_allocated, added to the generics of the device
!> matrices (their names merge in module tcgemm). Copies and source=/mold= allocation are in
!> tcgemm_device_batch_copies. Programs `use tcgemm`, not this module.
!>
!> Public to the other parts only: allocate_batch (the core of every allocation), layout_problem
!> (the rules a batch handle must keep, also checked for handles built with the structure
!> constructor), batch_text (for messages) and storage_elements. Each generic has a specific per
!> kind of the sizes and of `stat`, as in tcgemm_device_matrices (a caller built with
!> -fdefault-integer-8 gets its own; the `_stat64` specifics take stat as a required argument).
module tcgemm_device_batches
  use, intrinsic :: iso_fortran_env, only: int32, int64
  use, intrinsic :: iso_c_binding, only: c_int, c_int64_t, c_ptr, c_null_ptr, c_associated
  use tcgemm_c, only: TCGEMM_SUCCESS, c_tcgemm_malloc, c_tcgemm_free
  use tcgemm_errors, only: report, finish, fail_argument, itoa
  use tcgemm_device_matrices, only: BYTES_PER_REAL64
  implicit none
  private

  public :: tcgemm_device_batch
  public :: tcgemm_device_allocate, tcgemm_device_deallocate, tcgemm_device_allocated
  public :: allocate_batch, layout_problem, batch_text, storage_elements

  !> Most elements a batch may span: 2**59 doubles, so that its size in bytes and every offset
  !> into it fit an int64 (the bound tcgemm_device_matrices puts on one matrix).
  integer(int64), parameter :: MAX_ELEMENTS = 2_int64**59

  !> `count` column-major rows x cols matrices in device memory: element (i, j) of matrix g
  !> (all 1-based) lives at ptr + ((g-1)*stride + (j-1)*ld + (i-1)) * 8 bytes. Rows rows+1..ld of
  !> each column, and the stride - ld*cols elements after each matrix but the last, are padding.
  !> The memory behind a batch is (count-1)*stride + ld*cols elements (whole columns of every
  !> matrix; nothing after the last one). The components are public so that device memory
  !> obtained elsewhere (CUDA Fortran, OpenACC, cudaMalloc through bind(C)) can be wrapped with
  !> the structure constructor, `tcgemm_device_batch(ptr, rows, cols, ld, stride, count)`; every
  !> call checks such a handle against the rules of layout_problem. tcgemm_device_deallocate
  !> frees only what tcgemm_device_allocate allocated. The default value is an empty batch.
  type :: tcgemm_device_batch
    type(c_ptr) :: ptr = c_null_ptr   !< device address of element (1, 1) of the first matrix
    integer(int64) :: rows = 0        !< rows of each matrix
    integer(int64) :: cols = 0        !< columns of each matrix
    integer(int64) :: ld = 1          !< leading dimension in elements, >= max(1, rows)
    integer(int64) :: stride = 0      !< elements from one matrix to the next, >= ld * cols
    integer(int64) :: count = 0       !< number of matrices, >= 0
  end type tcgemm_device_batch

  !> `call tcgemm_device_allocate(d, rows, cols, count [, ld, stride, stat, errmsg])`: count
  !> matrices of rows x cols, leading dimension ld (default rows), stride elements apart (default
  !> ld * cols: the matrices back to back, as in a Fortran array x(ld, cols, count)); contents
  !> undefined. Sizes, ld and stride all default integer or all int64; stat of either kind.
  interface tcgemm_device_allocate
    module procedure batch_allocate_i32, batch_allocate_i64
    module procedure batch_allocate_i32_stat64, batch_allocate_i64_stat64
  end interface tcgemm_device_allocate

  !> `call tcgemm_device_deallocate(d [, stat, errmsg])`: free the batch, reset it to empty.
  interface tcgemm_device_deallocate
    module procedure batch_deallocate, batch_deallocate_stat64
  end interface tcgemm_device_deallocate

  !> `tcgemm_device_allocated(d)`: whether the batch holds device memory.
  interface tcgemm_device_allocated
    module procedure batch_allocated
  end interface tcgemm_device_allocated

contains

  !> "<rows>x<cols> x <count> (ld = <ld>, stride = <stride>)", for messages.
  function batch_text(d) result(text)
    type(tcgemm_device_batch), intent(in) :: d
    character(len=:), allocatable :: text
    text = itoa(d%rows) // 'x' // itoa(d%cols) // ' x ' // itoa(d%count) // ' (ld = ' // &
           itoa(d%ld) // ', stride = ' // itoa(d%stride) // ')'
  end function batch_text

  !> Elements of device memory behind a batch that keeps the rules of layout_problem: whole
  !> columns of every matrix, none after the last; none at all for an empty batch.
  pure integer(int64) function storage_elements(d)
    type(tcgemm_device_batch), intent(in) :: d
    storage_elements = 0
    if (d%rows > 0 .and. d%cols > 0 .and. d%count > 0) &
      storage_elements = (d%count - 1) * d%stride + d%ld * d%cols
  end function storage_elements

  !> Which rule of a batch's layout `d` breaks, or '' when it keeps them all: sizes and count
  !> >= 0, ld >= max(1, rows), stride >= ld * cols (no two matrices share an element: the C of
  !> a product must not), and the whole batch within MAX_ELEMENTS (so that no size overflows).
  !> The divisors are kept >= 1 by max(): Fortran may evaluate both sides of an .and.
  function layout_problem(d) result(problem)
    type(tcgemm_device_batch), intent(in) :: d
    character(len=:), allocatable :: problem

    problem = ''
    if (d%rows < 0 .or. d%cols < 0) then
      problem = 'rows = ' // itoa(d%rows) // ' and cols = ' // itoa(d%cols) // ' must be >= 0'
    else if (d%count < 0) then
      problem = 'count = ' // itoa(d%count) // ' must be >= 0'
    else if (d%ld < max(1_int64, d%rows)) then
      problem = 'ld = ' // itoa(d%ld) // ' must be >= max(1, rows) = ' // &
                itoa(max(1_int64, d%rows))
    else if (d%cols > 0 .and. d%ld > MAX_ELEMENTS / max(1_int64, d%cols)) then
      problem = 'ld * cols = ' // itoa(d%ld) // ' * ' // itoa(d%cols) // ' elements is more ' // &
                'than 2**59'
    else if (d%stride < d%ld * d%cols) then
      problem = 'stride = ' // itoa(d%stride) // ' must be >= ld * cols = ' // &
                itoa(d%ld * d%cols) // ' (the matrices must not overlap)'
    else if (d%count > 1 .and. &
             d%stride > (MAX_ELEMENTS - d%ld * d%cols) / max(1_int64, d%count - 1)) then
      problem = 'count = ' // itoa(d%count) // ' matrices ' // itoa(d%stride) // &
                ' elements apart span more than 2**59 elements'
    end if
  end function layout_problem

  !> True when `d` holds device memory.
  logical function batch_allocated(d)
    type(tcgemm_device_batch), intent(in) :: d
    batch_allocated = c_associated(d%ptr)
  end function batch_allocated

  !> Allocate `count` rows x cols matrices with leading dimension ld, stride elements apart
  !> (stride absent: ld * cols). Every allocation ends here. An empty batch (a size or the count
  !> 0) gets a null pointer and needs no GPU.
  subroutine allocate_batch(d, rows, cols, count, ld, stride, stat, errmsg)
    type(tcgemm_device_batch), intent(inout) :: d
    integer(int64), intent(in) :: rows, cols, count, ld
    integer(int64), intent(in), optional :: stride
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: where = 'tcgemm_device_allocate'
    type(tcgemm_device_batch) :: wanted
    character(len=:), allocatable :: problem
    type(c_ptr) :: ptr

    if (c_associated(d%ptr)) then
      call fail_argument(where, 'the device batch is already allocated (' // batch_text(d) // &
                         '); deallocate it first', stat, errmsg)
      return
    end if
    wanted = tcgemm_device_batch(ptr=c_null_ptr, rows=rows, cols=cols, ld=ld, stride=0, &
                                count=count)
    if (present(stride)) then
      wanted%stride = stride
    else if (cols > 0 .and. ld >= 1 .and. ld <= MAX_ELEMENTS / max(1_int64, cols)) then
      wanted%stride = ld * cols     ! back to back; a bad ld or cols is named before the stride
    end if
    problem = layout_problem(wanted)
    if (len(problem) > 0) then
      call fail_argument(where, problem, stat, errmsg)
      return
    end if

    ptr = c_null_ptr
    if (storage_elements(wanted) > 0) then
      call finish(c_tcgemm_malloc(ptr, int(storage_elements(wanted) * BYTES_PER_REAL64, &
                                           c_int64_t)), where, stat, errmsg)
      if (.not. c_associated(ptr)) return      ! failed and reported (stat present)
    else
      call report(TCGEMM_SUCCESS, '', stat, errmsg)
    end if
    d = wanted
    d%ptr = ptr
  end subroutine allocate_batch

  !> Default-integer sizes (ld, stride optional), default-integer stat.
  subroutine batch_allocate_i32(d, rows, cols, count, ld, stride, stat, errmsg)
    type(tcgemm_device_batch), intent(inout) :: d
    integer(int32), intent(in) :: rows, cols, count
    integer(int32), intent(in), optional :: ld, stride
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(int64), allocatable :: lead, apart   ! unallocated when absent: passed on as absent
    if (present(ld)) lead = int(ld, int64)
    if (present(stride)) apart = int(stride, int64)
    call batch_allocate_i64(d, int(rows, int64), int(cols, int64), int(count, int64), lead, &
                            apart, stat, errmsg)
  end subroutine batch_allocate_i32

  !> int64 sizes, default-integer stat.
  subroutine batch_allocate_i64(d, rows, cols, count, ld, stride, stat, errmsg)
    type(tcgemm_device_batch), intent(inout) :: d
    integer(int64), intent(in) :: rows, cols, count
    integer(int64), intent(in), optional :: ld, stride
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(int64) :: lead
    lead = max(1_int64, rows)
    if (present(ld)) lead = ld
    call allocate_batch(d, rows, cols, count, lead, stride, stat, errmsg)
  end subroutine batch_allocate_i64

  subroutine batch_allocate_i32_stat64(d, rows, cols, count, ld, stride, stat, errmsg)
    type(tcgemm_device_batch), intent(inout) :: d
    integer(int32), intent(in) :: rows, cols, count
    integer(int32), intent(in), optional :: ld, stride
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call batch_allocate_i32(d, rows, cols, count, ld, stride, status, errmsg)
    stat = status
  end subroutine batch_allocate_i32_stat64

  !> int64 sizes and stat: a caller compiled with -fdefault-integer-8.
  subroutine batch_allocate_i64_stat64(d, rows, cols, count, ld, stride, stat, errmsg)
    type(tcgemm_device_batch), intent(inout) :: d
    integer(int64), intent(in) :: rows, cols, count
    integer(int64), intent(in), optional :: ld, stride
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call batch_allocate_i64(d, rows, cols, count, ld, stride, status, errmsg)
    stat = status
  end subroutine batch_allocate_i64_stat64

  !> Free the device memory of `d` and reset it to an empty batch; a no-op for a batch without
  !> memory, so that clean-up code may call it unconditionally. Only for memory from
  !> tcgemm_device_allocate.
  subroutine batch_deallocate(d, stat, errmsg)
    type(tcgemm_device_batch), intent(inout) :: d
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int) :: status

    status = TCGEMM_SUCCESS
    if (c_associated(d%ptr)) status = c_tcgemm_free(d%ptr)
    d = tcgemm_device_batch()
    call finish(status, 'tcgemm_device_deallocate', stat, errmsg)
  end subroutine batch_deallocate

  subroutine batch_deallocate_stat64(d, stat, errmsg)
    type(tcgemm_device_batch), intent(inout) :: d
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call batch_deallocate(d, status, errmsg)
    stat = status
  end subroutine batch_deallocate_stat64

end module tcgemm_device_batches
