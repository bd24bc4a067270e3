!> Part of module tcgemm (fortran/tcgemm.f90 lists the parts): real(real32) device matrices.
!>
!> type(tcgemm_device_matrix_r32) is a column-major real(real32) matrix in device memory, the
!> operand of the device form of tcgemm_sgemm. It is managed as tcgemm_device_matrix is, through
!> the same generics, which this module extends with a specific per kind of stat and sizes:
!> tcgemm_device_allocate (rows/cols, `source=` or `mold=`), tcgemm_copy, tcgemm_device_deallocate,
!> tcgemm_device_allocated and tcgemm_device_view. Programs `use tcgemm`, not this module.
!>
!> The type extends tcgemm_device_matrix without adding components: its parent component is the
!> layout (ptr, rows, cols, ld, is_view), which the layout helpers of tcgemm_device_matrices and
!> tcgemm_device_views take together with the element size, so that checks and messages are the
!> same for both kinds. It is still a type of its own: a non-polymorphic dummy accepts only its
!> declared type, so a real(real32) matrix passed to tcgemm_dgemm (or a real(real64) one to
!> tcgemm_sgemm) is refused at compile time, where mixing them up would otherwise read the
!> memory as the wrong kind.
module tcgemm_device_real32
  use, intrinsic :: iso_fortran_env, only: int32, int64, real32
  use, intrinsic :: iso_c_binding, only: c_int, c_int64_t, c_loc, c_associated
  use tcgemm_c, only: TCGEMM_SUCCESS, c_tcgemm_memcpy_to_device, c_tcgemm_memcpy_to_host
  use tcgemm_errors, only: report, finish, fail_argument
  use tcgemm_device_matrices, only: tcgemm_device_matrix, allocate_shape, device_deallocate, &
                                    storage_bytes, rows_only, column_address, copy_layout, &
                                    PACKED, VERBATIM
  use tcgemm_device_views, only: view_core
  implicit none
  private

  public :: tcgemm_device_matrix_r32
  public :: tcgemm_device_allocate, tcgemm_copy, tcgemm_device_deallocate
  public :: tcgemm_device_allocated, tcgemm_device_view

  !> The host kind and element size of the copies included from tcgemm_device_copy.inc.
  integer, parameter :: wp = real32
  integer(int64), parameter :: ELEMENT_BYTES = storage_size(1.0_wp) / 8

  !> A column-major real(real32) matrix in device memory: element (i, j) (1-based) lives at
  !> ptr + ((j-1)*ld + (i-1)) * 4 bytes. Components as tcgemm_device_matrix's, in the same order,
  !> so that `tcgemm_device_matrix_r32(ptr, rows, cols, ld)` wraps real(real32) device memory
  !> obtained elsewhere (tcgemm_device_deallocate frees only what tcgemm_device_allocate got).
  type, extends(tcgemm_device_matrix) :: tcgemm_device_matrix_r32
  end type tcgemm_device_matrix_r32

  ! The generics below share their names with tcgemm_device_matrices' (module tcgemm sees one
  ! generic of each name, with the specifics of both kinds), and take the same arguments.
  interface tcgemm_device_allocate
    module procedure allocate_r32_i32, allocate_r32_i64
    module procedure allocate_r32_i32_stat64, allocate_r32_i64_stat64
    module procedure allocate_like_r32_i32, allocate_like_r32_i64
    module procedure allocate_like_r32_i32_stat64, allocate_like_r32_i64_stat64
  end interface tcgemm_device_allocate

  interface tcgemm_copy
    module procedure copy_to_device_r32, copy_to_host_r32
    module procedure copy_to_device_r32_stat64, copy_to_host_r32_stat64
  end interface tcgemm_copy

  interface tcgemm_device_deallocate
    module procedure deallocate_r32, deallocate_r32_stat64
  end interface tcgemm_device_deallocate

  interface tcgemm_device_allocated
    module procedure allocated_r32
  end interface tcgemm_device_allocated

  interface tcgemm_device_view
    module procedure view_r32_i32, view_r32_i64, view_r32_i32_stat64, view_r32_i64_stat64
  end interface tcgemm_device_view

contains

  ! ---- allocation: rows x cols ------------------------------------------------------------------

  !> `call tcgemm_device_allocate(d, rows, cols [, ld, stat, errmsg])` with default integers.
  subroutine allocate_r32_i32(d, rows, cols, ld, stat, errmsg)
    type(tcgemm_device_matrix_r32), intent(inout) :: d
    integer(int32), intent(in) :: rows, cols
    integer(int32), intent(in), optional :: ld
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(int64), allocatable :: lead     ! unallocated when ld is absent: passed on as absent
    if (present(ld)) lead = int(ld, int64)
    call allocate_r32_i64(d, int(rows, int64), int(cols, int64), lead, stat, errmsg)
  end subroutine allocate_r32_i32

  !> int64 sizes, default-integer stat (all rows x cols specifics end here).
  subroutine allocate_r32_i64(d, rows, cols, ld, stat, errmsg)
    type(tcgemm_device_matrix_r32), intent(inout) :: d
    integer(int64), intent(in) :: rows, cols
    integer(int64), intent(in), optional :: ld
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(int64) :: lead

    lead = max(1_int64, rows)
    if (present(ld)) lead = ld
    call allocate_shape(d%tcgemm_device_matrix, rows, cols, lead, ELEMENT_BYTES, stat, errmsg)
  end subroutine allocate_r32_i64

  subroutine allocate_r32_i32_stat64(d, rows, cols, ld, stat, errmsg)
    type(tcgemm_device_matrix_r32), intent(inout) :: d
    integer(int32), intent(in) :: rows, cols
    integer(int32), intent(in), optional :: ld
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call allocate_r32_i32(d, rows, cols, ld, status, errmsg)
    stat = status
  end subroutine allocate_r32_i32_stat64

  subroutine allocate_r32_i64_stat64(d, rows, cols, ld, stat, errmsg)
    type(tcgemm_device_matrix_r32), intent(inout) :: d
    integer(int64), intent(in) :: rows, cols
    integer(int64), intent(in), optional :: ld
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call allocate_r32_i64(d, rows, cols, ld, status, errmsg)
    stat = status
  end subroutine allocate_r32_i64_stat64

  ! ---- allocation: source= / mold= (ld of either kind; see tcgemm_device_matrices) ------------

  subroutine allocate_like_r32_i32(d, source, mold, ld, stat, errmsg)
    type(tcgemm_device_matrix_r32), intent(inout) :: d
    real(real32), intent(in), optional :: source(:, :), mold(:, :)
    integer(int32), intent(in), optional :: ld
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(int64), allocatable :: lead     ! unallocated when ld is absent: passed on as absent
    if (present(ld)) lead = int(ld, int64)
    call allocate_like(d%tcgemm_device_matrix, source, mold, lead, stat, errmsg)
  end subroutine allocate_like_r32_i32

  !> int64 ld (required: it tells this specific from the one above), default-integer stat.
  subroutine allocate_like_r32_i64(d, source, mold, ld, stat, errmsg)
    type(tcgemm_device_matrix_r32), intent(inout) :: d
    real(real32), intent(in), optional :: source(:, :), mold(:, :)
    integer(int64), intent(in) :: ld
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call allocate_like(d%tcgemm_device_matrix, source, mold, ld, stat, errmsg)
  end subroutine allocate_like_r32_i64

  !> Default-integer ld (required here), int64 stat.
  subroutine allocate_like_r32_i32_stat64(d, source, mold, ld, stat, errmsg)
    type(tcgemm_device_matrix_r32), intent(inout) :: d
    real(real32), intent(in), optional :: source(:, :), mold(:, :)
    integer(int32), intent(in) :: ld
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call allocate_like(d%tcgemm_device_matrix, source, mold, int(ld, int64), status, errmsg)
    stat = status
  end subroutine allocate_like_r32_i32_stat64

  !> int64 ld (or none) and stat: a caller compiled with -fdefault-integer-8.
  subroutine allocate_like_r32_i64_stat64(d, source, mold, ld, stat, errmsg)
    type(tcgemm_device_matrix_r32), intent(inout) :: d
    real(real32), intent(in), optional :: source(:, :), mold(:, :)
    integer(int64), intent(in), optional :: ld
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call allocate_like(d%tcgemm_device_matrix, source, mold, ld, status, errmsg)
    stat = status
  end subroutine allocate_like_r32_i64_stat64

  ! ---- copies, deallocation, state -------------------------------------------------------------

  !> Upload: `call tcgemm_copy(host_array, device_matrix)`, as for real(real64).
  subroutine copy_to_device_r32(src, dst, stat, errmsg)
    real(real32), intent(in), contiguous, target :: src(:, :)
    type(tcgemm_device_matrix_r32), intent(in) :: dst
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call copy_to_device(src, dst%tcgemm_device_matrix, stat, errmsg)
  end subroutine copy_to_device_r32

  !> Download: `call tcgemm_copy(device_matrix, host_array)`; on error the host array is unchanged.
  subroutine copy_to_host_r32(src, dst, stat, errmsg)
    type(tcgemm_device_matrix_r32), intent(in) :: src
    real(real32), intent(inout), contiguous, target :: dst(:, :)
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call copy_to_host(src%tcgemm_device_matrix, dst, stat, errmsg)
  end subroutine copy_to_host_r32

  subroutine copy_to_device_r32_stat64(src, dst, stat, errmsg)
    real(real32), intent(in), contiguous, target :: src(:, :)
    type(tcgemm_device_matrix_r32), intent(in) :: dst
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call copy_to_device(src, dst%tcgemm_device_matrix, status, errmsg)
    stat = status
  end subroutine copy_to_device_r32_stat64

  subroutine copy_to_host_r32_stat64(src, dst, stat, errmsg)
    type(tcgemm_device_matrix_r32), intent(in) :: src
    real(real32), intent(inout), contiguous, target :: dst(:, :)
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call copy_to_host(src%tcgemm_device_matrix, dst, status, errmsg)
    stat = status
  end subroutine copy_to_host_r32_stat64

  !> Free the memory of `d` (a no-op without memory; a view only forgets its parent's).
  subroutine deallocate_r32(d, stat, errmsg)
    type(tcgemm_device_matrix_r32), intent(inout) :: d
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call device_deallocate(d%tcgemm_device_matrix, stat, errmsg)
  end subroutine deallocate_r32

  subroutine deallocate_r32_stat64(d, stat, errmsg)
    type(tcgemm_device_matrix_r32), intent(inout) :: d
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call device_deallocate(d%tcgemm_device_matrix, status, errmsg)
    stat = status
  end subroutine deallocate_r32_stat64

  !> True when `d` holds device memory.
  logical function allocated_r32(d)
    type(tcgemm_device_matrix_r32), intent(in) :: d
    allocated_r32 = c_associated(d%ptr)
  end function allocated_r32

  ! ---- views: `tcgemm_device_view(a, row, col, rows, cols [, stat, errmsg])` -----------------

  function view_r32_i32(a, row, col, rows, cols, stat, errmsg) result(v)
    type(tcgemm_device_matrix_r32), intent(in) :: a
    integer(int32), intent(in) :: row, col, rows, cols
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(tcgemm_device_matrix_r32) :: v
    v%tcgemm_device_matrix = view_core(a%tcgemm_device_matrix, int(row, int64), &
                                       int(col, int64), int(rows, int64), int(cols, int64), &
                                       ELEMENT_BYTES, stat, errmsg)
  end function view_r32_i32

  function view_r32_i64(a, row, col, rows, cols, stat, errmsg) result(v)
    type(tcgemm_device_matrix_r32), intent(in) :: a
    integer(int64), intent(in) :: row, col, rows, cols
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(tcgemm_device_matrix_r32) :: v
    v%tcgemm_device_matrix = view_core(a%tcgemm_device_matrix, row, col, rows, cols, &
                                       ELEMENT_BYTES, stat, errmsg)
  end function view_r32_i64

  !> Default-integer indices, int64 stat (not optional: it tells this specific from view_r32_i32).
  function view_r32_i32_stat64(a, row, col, rows, cols, stat, errmsg) result(v)
    type(tcgemm_device_matrix_r32), intent(in) :: a
    integer(int32), intent(in) :: row, col, rows, cols
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(tcgemm_device_matrix_r32) :: v
    integer :: status
    v = view_r32_i64(a, int(row, int64), int(col, int64), int(rows, int64), int(cols, int64), &
                     status, errmsg)
    stat = status
  end function view_r32_i32_stat64

  function view_r32_i64_stat64(a, row, col, rows, cols, stat, errmsg) result(v)
    type(tcgemm_device_matrix_r32), intent(in) :: a
    integer(int64), intent(in) :: row, col, rows, cols
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(tcgemm_device_matrix_r32) :: v
    integer :: status
    v = view_r32_i64(a, row, col, rows, cols, status, errmsg)
    stat = status
  end function view_r32_i64_stat64

  ! allocate_like (source=/mold=), copy_to_device, copy_to_host and their helpers for real(wp)
  ! host arrays, on the layout (the parent component).
  include 'tcgemm_device_copy.inc'

end module tcgemm_device_real32
