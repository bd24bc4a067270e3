!> Part of module tcgemm (fortran/tcgemm.f90 lists the parts): copies between rank-3 host arrays
!> and batches of device matrices (type(tcgemm_device_batch), tcgemm_device_batches), and the
!> source=/mold= allocation of a batch, which is an allocation followed by an upload. Both are
!> added to the generics tcgemm_copy and tcgemm_device_allocate. Programs `use tcgemm`, not this
!> module.
!>
!> The host array x(:, :, g) is matrix g and is either rows x cols x count (packed: the padding
!> rows and the gaps between the matrices are written as zeros on upload and skipped on
!> download) or ld x cols x count (padding rows copied too). Each copy is one transfer of the
!> batch's whole storage ((count-1)*stride + ld*cols elements), straight from or into the host
!> array when it has exactly that layout (ld x cols x count with stride = ld*cols), through a
!> staging buffer otherwise: one large transfer beats one per matrix by far for the small
!> matrices batches are made of. Copies are synchronous (they wait for the default stream).
module tcgemm_device_batch_copies
  use, intrinsic :: iso_fortran_env, only: int32, int64, real64
  use, intrinsic :: iso_c_binding, only: c_int, c_int64_t, c_loc, c_associated
  use tcgemm_c, only: TCGEMM_SUCCESS, c_tcgemm_memcpy_to_device, c_tcgemm_memcpy_to_host
  use tcgemm_errors, only: report, finish, fail_argument, itoa
  use tcgemm_device_matrices, only: BYTES_PER_REAL64
  use tcgemm_device_batches, only: tcgemm_device_batch, allocate_batch, layout_problem, &
                                   batch_text, storage_elements, batch_deallocate => &
                                   tcgemm_device_deallocate
  implicit none
  private

  public :: tcgemm_copy, tcgemm_device_allocate

  !> How a host array is laid out against a batch (see copy_plan).
  integer, parameter :: NOTHING_TO_COPY = 0, DIRECT = 1, STAGED = 2

  !> `call tcgemm_copy(x, d)` uploads the rank-3 host array x into batch d, `call
  !> tcgemm_copy(d, x)` downloads; stat of either kind.
  interface tcgemm_copy
    module procedure batch_to_device, batch_to_host
    module procedure batch_to_device_stat64, batch_to_host_stat64
  end interface tcgemm_copy

  !> `call tcgemm_device_allocate(d, source=x [, ld])` (shape of the rank-3 array x: size(x, 1)
  !> x size(x, 2) matrices, size(x, 3) of them; contents copied) or `(d, mold=x [, ld])` (shape
  !> only); ld absent: size(x, 1); the matrices back to back (stride = ld * cols: allocate from
  !> a shape for another stride). ld and stat of either kind: as for the device matrices, the
  !> int64-ld specific without an int64 stat and the default-ld one with an int64 stat take ld
  !> as a required argument, which tells them from the others.
  interface tcgemm_device_allocate
    module procedure batch_like_i32, batch_like_i64, batch_like_i32_stat64, batch_like_i64_stat64
  end interface tcgemm_device_allocate

contains

  !> How to copy between a host array of shape host_shape and batch d: DIRECT (one transfer
  !> from or into the array itself), STAGED (through a buffer of the batch's storage), or
  !> NOTHING_TO_COPY, when d is empty (reported as success) or the call is refused (reported as
  !> an error: the batch breaks its layout rules or is not allocated, or the array fits it not).
  integer function copy_plan(where, host_shape, d, stat, errmsg)
    character(len=*), intent(in) :: where
    integer(int64), intent(in) :: host_shape(3)
    type(tcgemm_device_batch), intent(in) :: d
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=:), allocatable :: problem

    copy_plan = NOTHING_TO_COPY
    problem = layout_problem(d)
    if (len(problem) > 0) then
      call fail_argument(where, 'the device batch: ' // problem, stat, errmsg)
      return
    end if
    if (host_shape(2) /= d%cols .or. host_shape(3) /= d%count .or. &
        (host_shape(1) /= d%rows .and. host_shape(1) /= d%ld)) then
      call fail_argument(where, 'the host array is ' // itoa(host_shape(1)) // 'x' // &
                         itoa(host_shape(2)) // 'x' // itoa(host_shape(3)) // &
                         ', the device batch ' // batch_text(d) // ': the host array must be ' // &
                         'rows x cols x count or ld x cols x count', stat, errmsg)
      return
    end if
    if (storage_elements(d) == 0) then
      call report(TCGEMM_SUCCESS, '', stat, errmsg)
      return
    end if
    if (.not. c_associated(d%ptr)) then
      call fail_argument(where, 'the device batch ' // batch_text(d) // ' has no device memory', &
                         stat, errmsg)
      return
    end if
    copy_plan = STAGED
    if (host_shape(1) == d%ld .and. d%stride == d%ld * d%cols) copy_plan = DIRECT
  end function copy_plan

  !> Element of the batch's storage just before x(1, j, g), for the host array's first
  !> extent rows (packed or ld).
  pure integer(int64) function column_offset(d, j, g)
    type(tcgemm_device_batch), intent(in) :: d
    integer(int64), intent(in) :: j, g
    column_offset = (g - 1) * d%stride + (j - 1) * d%ld
  end function column_offset

  !> Upload: `call tcgemm_copy(host_array, device_batch)`. Synchronous.
  subroutine batch_to_device(src, dst, stat, errmsg)
    real(real64), intent(in), contiguous, target :: src(:, :, :)
    type(tcgemm_device_batch), intent(in) :: dst
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: where = 'tcgemm_copy (host to device)'
    real(real64), allocatable, target :: buffer(:)
    integer(int64) :: bytes, j, g, first, rows

    bytes = storage_elements(dst) * BYTES_PER_REAL64
    select case (copy_plan(where, shape(src, int64), dst, stat, errmsg))
    case (DIRECT)
      call finish(c_tcgemm_memcpy_to_device(dst%ptr, c_loc(src), int(bytes, c_int64_t)), &
                  where, stat, errmsg)
    case (STAGED)
      ! Zeros in the padding, so that the device contents are fully defined.
      allocate(buffer(storage_elements(dst)))
      buffer = 0.0_real64
      rows = size(src, 1, int64)
      do g = 1, dst%count
        do j = 1, dst%cols
          first = column_offset(dst, j, g) + 1
          buffer(first:first + rows - 1) = src(:, j, g)
        end do
      end do
      call finish(c_tcgemm_memcpy_to_device(dst%ptr, c_loc(buffer), int(bytes, c_int64_t)), &
                  where, stat, errmsg)
    end select
  end subroutine batch_to_device

  !> Download: `call tcgemm_copy(device_batch, host_array)`. Synchronous. On error (a refused
  !> call, a failed staged transfer) the host array is unchanged.
  subroutine batch_to_host(src, dst, stat, errmsg)
    type(tcgemm_device_batch), intent(in) :: src
    real(real64), intent(inout), contiguous, target :: dst(:, :, :)
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: where = 'tcgemm_copy (device to host)'
    real(real64), allocatable, target :: buffer(:)
    integer(int64) :: bytes, j, g, first, rows
    integer(c_int) :: status

    bytes = storage_elements(src) * BYTES_PER_REAL64
    select case (copy_plan(where, shape(dst, int64), src, stat, errmsg))
    case (DIRECT)
      call finish(c_tcgemm_memcpy_to_host(c_loc(dst), src%ptr, int(bytes, c_int64_t)), &
                  where, stat, errmsg)
    case (STAGED)
      allocate(buffer(storage_elements(src)))
      status = c_tcgemm_memcpy_to_host(c_loc(buffer), src%ptr, int(bytes, c_int64_t))
      if (status == TCGEMM_SUCCESS) then
        rows = size(dst, 1, int64)
        do g = 1, src%count
          do j = 1, src%cols
            first = column_offset(src, j, g) + 1
            dst(:, j, g) = buffer(first:first + rows - 1)
          end do
        end do
      end if
      call finish(status, where, stat, errmsg)
    end select
  end subroutine batch_to_host

  subroutine batch_to_device_stat64(src, dst, stat, errmsg)
    real(real64), intent(in), contiguous, target :: src(:, :, :)
    type(tcgemm_device_batch), intent(in) :: dst
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call batch_to_device(src, dst, status, errmsg)
    stat = status
  end subroutine batch_to_device_stat64

  subroutine batch_to_host_stat64(src, dst, stat, errmsg)
    type(tcgemm_device_batch), intent(in) :: src
    real(real64), intent(inout), contiguous, target :: dst(:, :, :)
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call batch_to_host(src, dst, status, errmsg)
    stat = status
  end subroutine batch_to_host_stat64

  !> source=/mold=: every such specific ends here. Exactly one of source and mold must be
  !> present. A failed upload frees what was allocated before the error is delivered (and,
  !> with stat absent, before ERROR STOP).
  subroutine allocate_like(d, source, mold, ld, stat, errmsg)
    type(tcgemm_device_batch), intent(inout) :: d
    real(real64), intent(in), optional :: source(:, :, :), mold(:, :, :)
    integer(int64), intent(in), optional :: ld
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: where = 'tcgemm_device_allocate'
    integer(int64) :: extents(3), lead
    integer :: status, cleanup_status
    character(len=1024) :: message

    if (present(source) .eqv. present(mold)) then
      call fail_argument(where, 'give exactly one of source= and mold=', stat, errmsg)
      return
    end if
    if (present(source)) then
      extents = shape(source, int64)
    else
      extents = shape(mold, int64)
    end if
    lead = max(1_int64, extents(1))
    if (present(ld)) lead = ld

    message = ''
    call allocate_batch(d, extents(1), extents(2), extents(3), lead, stat=status, errmsg=message)
    if (status == TCGEMM_SUCCESS .and. present(source)) then
      call batch_to_device(source, d, status, message)
      if (status /= TCGEMM_SUCCESS) call batch_deallocate(d, cleanup_status)
    end if
    call report(status, trim(message), stat, errmsg)
  end subroutine allocate_like

  !> source=/mold= with a default-integer ld (or none) and stat.
  subroutine batch_like_i32(d, source, mold, ld, stat, errmsg)
    type(tcgemm_device_batch), intent(inout) :: d
    real(real64), intent(in), optional :: source(:, :, :), mold(:, :, :)
    integer(int32), intent(in), optional :: ld
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(int64), allocatable :: lead     ! unallocated when ld is absent: passed on as absent
    if (present(ld)) lead = int(ld, int64)
    call allocate_like(d, source, mold, lead, stat, errmsg)
  end subroutine batch_like_i32

  !> int64 ld (required: it tells this specific from the one above), default-integer stat.
  subroutine batch_like_i64(d, source, mold, ld, stat, errmsg)
    type(tcgemm_device_batch), intent(inout) :: d
    real(real64), intent(in), optional :: source(:, :, :), mold(:, :, :)
    integer(int64), intent(in) :: ld
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call allocate_like(d, source, mold, ld, stat, errmsg)
  end subroutine batch_like_i64

  !> Default-integer ld (required here), int64 stat.
  subroutine batch_like_i32_stat64(d, source, mold, ld, stat, errmsg)
    type(tcgemm_device_batch), intent(inout) :: d
    real(real64), intent(in), optional :: source(:, :, :), mold(:, :, :)
    integer(int32), intent(in) :: ld
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call allocate_like(d, source, mold, int(ld, int64), status, errmsg)
    stat = status
  end subroutine batch_like_i32_stat64

  !> int64 ld (or none) and stat: a caller compiled with -fdefault-integer-8.
  subroutine batch_like_i64_stat64(d, source, mold, ld, stat, errmsg)
    type(tcgemm_device_batch), intent(inout) :: d
    real(real64), intent(in), optional :: source(:, :, :), mold(:, :, :)
    integer(int64), intent(in), optional :: ld
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call allocate_like(d, source, mold, ld, status, errmsg)
    stat = status
  end subroutine batch_like_i64_stat64

end module tcgemm_device_batch_copies
