!> Part of module tcgemm (fortran/tcgemm.f90 lists the parts): DGEMM on host arrays, the BLAS
!> form, tcgemm_release_workspace for the device buffers it keeps, tcgemm_host_register /
!> tcgemm_host_unregister to pin host arrays, and tcgemm_set_host_devices /
!> tcgemm_get_host_devices for the GPUs it runs on.
!>
!> dgemm_host_* are the host-array forms of the generic tcgemm_dgemm (assembled in module
!> tcgemm): one per kind of the sizes (default integer or int64) and of `stat`, whose kind
!> follows the caller's default integer (int64 under -fdefault-integer-8). The arrays are
!> assumed-rank, so elements (`a(i, j), lda`: the BLAS sub-matrix idiom), whole arrays and
!> contiguous sections of any rank arrive without copy; tcgemm_host_operands says what each one
!> is and whether the call fits in it. Programs `use tcgemm`, not this module.
module tcgemm_host_dgemm
  use, intrinsic :: iso_fortran_env, only: int32, int64, real64
  use, intrinsic :: iso_c_binding, only: c_char, c_ptr, c_loc, c_int64_t, c_int32_t, c_associated, &
                                         c_f_pointer
  use tcgemm_c, only: TCGEMM_MAX_MATRIX_BYTES, TCGEMM_SUCCESS, c_tcgemm_dgemm_host, &
                      c_tcgemm_release_workspace, c_tcgemm_host_register, c_tcgemm_host_unregister, &
                      c_tcgemm_set_host_devices, c_tcgemm_get_host_devices
  use tcgemm_errors, only: finish, fail_argument
  use tcgemm_device_matrices, only: BYTES_PER_REAL64
  use tcgemm_host_operands, only: host_operand, host_operand_of, matrix_span, UNKNOWN_EXTENT, &
                                  stored_matrix, check_blas_operands
  implicit none
  private

  public :: dgemm_host_i32, dgemm_host_i64, dgemm_host_i32_stat64, dgemm_host_i64_stat64
  public :: tcgemm_release_workspace, tcgemm_host_register, tcgemm_host_unregister
  public :: tcgemm_set_host_devices, tcgemm_get_host_devices

  !> Most elements (ld * columns) of one matrix the library accepts: TCGEMM_MAX_MATRIX_BYTES / 8.
  integer(int64), parameter :: MAX_MATRIX_ELEMENTS = TCGEMM_MAX_MATRIX_BYTES / 8

  !> Stands in for an operand with nothing to address (zero-size or rejected): the library's
  !> interface wants an array, and it reads no element of one the call does not touch.
  real(real64), target, save :: no_elements(1) = 0.0_real64

  !> Pin (page-lock) a contiguous real64 host array for fast copies to the GPU, and undo it.
  !> stat default integer or int64 (the _stat64 specifics: stat required, which tells them apart).
  interface tcgemm_host_register
    module procedure host_register_r1, host_register_r2
    module procedure host_register_r1_stat64, host_register_r2_stat64
  end interface tcgemm_host_register
  interface tcgemm_host_unregister
    module procedure host_unregister_r1, host_unregister_r2
    module procedure host_unregister_r1_stat64, host_unregister_r2_stat64
  end interface tcgemm_host_unregister

  !> Empty the buffer pool of host-array tcgemm_dgemm calls: `call tcgemm_release_workspace([stat,
  !> errmsg])`, stat default integer or int64.
  interface tcgemm_release_workspace
    module procedure release_workspace, release_workspace_stat64
  end interface tcgemm_release_workspace

  !> The GPUs host-array tcgemm_dgemm calls of this thread use (tcgemm.h, tcgemm_set_host_devices):
  !> `call tcgemm_set_host_devices(devices [, stat, errmsg])` with a default-integer array of
  !> device ordinals (0-based, as CUDA numbers them; size 0: back to TCGEMM_DEVICES and the
  !> defaults), stat default integer or int64.
  interface tcgemm_set_host_devices
    module procedure set_host_devices, set_host_devices_stat64
  end interface tcgemm_set_host_devices

  !> The effective list: `call tcgemm_get_host_devices(devices, count [, stat, errmsg])`; count is
  !> its length, its first min(count, size(devices)) entries go to devices.
  interface tcgemm_get_host_devices
    module procedure get_host_devices, get_host_devices_stat64
  end interface tcgemm_get_host_devices


contains

  !> A Fortran view of an operand's elements, for the library's array interface; the placeholder
  !> when there is nothing to address.
  subroutine element_sequence(op, x, ld, elements)
    type(host_operand), intent(in) :: op
    type(stored_matrix), intent(in) :: x
    integer(int64), intent(in) :: ld
    real(real64), pointer, contiguous, intent(out) :: elements(:)
    integer(int64) :: count

    if (.not. c_associated(op%address)) then
      elements => no_elements
      return
    end if
    count = op%extent
    if (count == UNKNOWN_EXTENT) count = matrix_span(x%rows, x%cols, ld)
    call c_f_pointer(op%address, elements, [max(1_int64, count)])
  end subroutine element_sequence

  !> Host-array DGEMM with 64-bit sizes on assumed-rank operands (all host specifics end here).
  !>
  !> The library checks its own arguments first (flags, sizes, leading dimensions, size limit)
  !> and numbers them as reference DGEMM does. The module's checks of the arrays themselves
  !> (contiguity, extent) run only when those pass: its message never hides the library's, and
  !> every call the library would run has had its arrays checked. Only the rules of the library
  !> that decide "accepted" are repeated here (valid_flag, valid_ld), none of its messages.
  subroutine dgemm_host_core(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, &
                             stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    integer(int64), intent(in) :: m, n, k, lda, ldb, ldc
    real(real64), intent(in) :: alpha, beta
    real(real64), intent(in), target :: a(..), b(..)
    real(real64), intent(inout), target :: c(..)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: where = 'tcgemm_dgemm'
    type(host_operand) :: a_op, b_op, c_op
    type(stored_matrix) :: a_mat, b_mat, c_mat
    real(real64), pointer, contiguous :: a_seq(:), b_seq(:), c_seq(:)
    character(len=:), allocatable :: problem
    character(kind=c_char) :: c_transa, c_transb
    logical :: reads_ab
    integer :: blamed

    a_op = host_operand_of(a)
    b_op = host_operand_of(b)
    c_op = host_operand_of(c)
    ! What the library touches: A and B when the product is non-empty and alpha /= 0, C when it
    ! has elements (tcgemm.h: alpha = 0 means A and B are not read). A NaN alpha reads them, as
    ! the library's `alpha != 0.0` does; written with <= to keep -Wcompare-reals quiet.
    reads_ab = m > 0 .and. n > 0 .and. k > 0 .and. .not. (abs(alpha) <= 0.0_real64)
    call check_blas_operands(transa, transb, m, n, k, reads_ab, a_op, lda, b_op, ldb, c_op, ldc, &
                             MAX_MATRIX_ELEMENTS, a_mat, b_mat, c_mat, problem, blamed)
    if (len(problem) > 0) then
      call fail_argument(where, problem, stat, errmsg, argument=blamed)
      return
    end if

    call element_sequence(a_op, a_mat, lda, a_seq)
    call element_sequence(b_op, b_mat, ldb, b_seq)
    call element_sequence(c_op, c_mat, ldc, c_seq)
    ! Copy the flags into local c_char variables before passing them by value: gfortran 12
    ! passes a character dummy argument handed on to a `character(kind=c_char), value` dummy
    ! as (part of) its address instead of its value. tests/fortran/test_errors_cpu catches it.
    c_transa = transa
    c_transb = transb
    call finish(c_tcgemm_dgemm_host(c_transa, c_transb, m, n, k, alpha, a_seq, lda, b_seq, ldb, &
                                    beta, c_seq, ldc), where, stat, errmsg)
  end subroutine dgemm_host_core

  !> Default-integer sizes and stat (BLAS dgemm).
  subroutine dgemm_host_i32(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, &
                            stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    integer(int32), intent(in) :: m, n, k, lda, ldb, ldc
    real(real64), intent(in) :: alpha, beta
    real(real64), intent(in), target :: a(..), b(..)
    real(real64), intent(inout), target :: c(..)
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call dgemm_host_core(transa, transb, int(m, int64), int(n, int64), int(k, int64), alpha, &
                         a, int(lda, int64), b, int(ldb, int64), beta, c, int(ldc, int64), &
                         stat, errmsg)
  end subroutine dgemm_host_i32

  !> int64 sizes, default-integer stat.
  subroutine dgemm_host_i64(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, &
                            stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    integer(int64), intent(in) :: m, n, k, lda, ldb, ldc
    real(real64), intent(in) :: alpha, beta
    real(real64), intent(in), target :: a(..), b(..)
    real(real64), intent(inout), target :: c(..)
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call dgemm_host_core(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, &
                         stat, errmsg)
  end subroutine dgemm_host_i64

  !> int64 sizes and an int64 stat: a caller compiled with -fdefault-integer-8. `stat` is not
  !> optional here: that is what tells this specific from dgemm_host_i64 (a call without stat
  !> goes there).
  subroutine dgemm_host_i64_stat64(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, &
                                   ldc, stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    integer(int64), intent(in) :: m, n, k, lda, ldb, ldc
    real(real64), intent(in) :: alpha, beta
    real(real64), intent(in), target :: a(..), b(..)
    real(real64), intent(inout), target :: c(..)
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call dgemm_host_core(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, &
                         status, errmsg)
    stat = status
  end subroutine dgemm_host_i64_stat64

  !> Default-integer sizes with an int64 stat.
  subroutine dgemm_host_i32_stat64(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, &
                                   ldc, stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    integer(int32), intent(in) :: m, n, k, lda, ldb, ldc
    real(real64), intent(in) :: alpha, beta
    real(real64), intent(in), target :: a(..), b(..)
    real(real64), intent(inout), target :: c(..)
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call dgemm_host_core(transa, transb, int(m, int64), int(n, int64), int(k, int64), alpha, &
                         a, int(lda, int64), b, int(ldb, int64), beta, c, int(ldc, int64), &
                         status, errmsg)
    stat = status
  end subroutine dgemm_host_i32_stat64

  !> Pin `bytes` of host memory from `address` (all host_register specifics end here).
  subroutine host_register_core(address, bytes, stat, errmsg)
    type(c_ptr), intent(in) :: address
    integer(int64), intent(in) :: bytes
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call finish(c_tcgemm_host_register(address, int(bytes, c_int64_t)), 'tcgemm_host_register', &
                stat, errmsg)
  end subroutine host_register_core

  !> Undo host_register_core (all host_unregister specifics end here).
  subroutine host_unregister_core(address, stat, errmsg)
    type(c_ptr), intent(in) :: address
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call finish(c_tcgemm_host_unregister(address), 'tcgemm_host_unregister', stat, errmsg)
  end subroutine host_unregister_core

  !> Pin a contiguous host array (rank 1 or 2) for direct-DMA copies; host_unregister_* undo it.
  subroutine host_register_r1(x, stat, errmsg)
    real(real64), intent(in), target, contiguous :: x(:)
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call host_register_core(c_loc(x), size(x, kind=int64) * BYTES_PER_REAL64, stat, errmsg)
  end subroutine host_register_r1

  subroutine host_register_r2(x, stat, errmsg)
    real(real64), intent(in), target, contiguous :: x(:, :)
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call host_register_core(c_loc(x), size(x, kind=int64) * BYTES_PER_REAL64, stat, errmsg)
  end subroutine host_register_r2

  subroutine host_register_r1_stat64(x, stat, errmsg)
    real(real64), intent(in), target, contiguous :: x(:)
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call host_register_core(c_loc(x), size(x, kind=int64) * BYTES_PER_REAL64, status, errmsg)
    stat = status
  end subroutine host_register_r1_stat64

  subroutine host_register_r2_stat64(x, stat, errmsg)
    real(real64), intent(in), target, contiguous :: x(:, :)
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call host_register_core(c_loc(x), size(x, kind=int64) * BYTES_PER_REAL64, status, errmsg)
    stat = status
  end subroutine host_register_r2_stat64

  subroutine host_unregister_r1(x, stat, errmsg)
    real(real64), intent(in), target, contiguous :: x(:)
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call host_unregister_core(c_loc(x), stat, errmsg)
  end subroutine host_unregister_r1

  subroutine host_unregister_r2(x, stat, errmsg)
    real(real64), intent(in), target, contiguous :: x(:, :)
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call host_unregister_core(c_loc(x), stat, errmsg)
  end subroutine host_unregister_r2

  subroutine host_unregister_r1_stat64(x, stat, errmsg)
    real(real64), intent(in), target, contiguous :: x(:)
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call host_unregister_core(c_loc(x), status, errmsg)
    stat = status
  end subroutine host_unregister_r1_stat64

  subroutine host_unregister_r2_stat64(x, stat, errmsg)
    real(real64), intent(in), target, contiguous :: x(:, :)
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call host_unregister_core(c_loc(x), status, errmsg)
    stat = status
  end subroutine host_unregister_r2_stat64

  !> Return to the device all memory of the buffer pool that host-array tcgemm_dgemm calls
  !> draw from (the pool of the current device, shared by all threads). Without a GPU there is
  !> nothing to return: stat 0.
  subroutine release_workspace(stat, errmsg)
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call finish(c_tcgemm_release_workspace(), 'tcgemm_release_workspace', stat, errmsg)
  end subroutine release_workspace

  subroutine release_workspace_stat64(stat, errmsg)
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call release_workspace(status, errmsg)
    stat = status
  end subroutine release_workspace_stat64

  subroutine set_host_devices(devices, stat, errmsg)
    integer(int32), intent(in) :: devices(:)
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int32_t) :: list(max(1, size(devices)))

    list = 0
    list(1:size(devices)) = int(devices, c_int32_t)
    call finish(c_tcgemm_set_host_devices(list, int(size(devices), c_int32_t)), &
                'tcgemm_set_host_devices', stat, errmsg)
  end subroutine set_host_devices

  subroutine set_host_devices_stat64(devices, stat, errmsg)
    integer(int32), intent(in) :: devices(:)
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call set_host_devices(devices, status, errmsg)
    stat = status
  end subroutine set_host_devices_stat64

  subroutine get_host_devices(devices, count, stat, errmsg)
    integer(int32), intent(out) :: devices(:)
    integer(int32), intent(out) :: count
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int32_t) :: list(max(1, size(devices))), n
    integer :: status, kept

    n = 0
    status = c_tcgemm_get_host_devices(list, int(size(devices), c_int32_t), n)
    count = n
    if (status == TCGEMM_SUCCESS) then
      kept = min(int(n), size(devices))
      devices(1:kept) = list(1:kept)
    end if
    call finish(status, 'tcgemm_get_host_devices', stat, errmsg)
  end subroutine get_host_devices

  subroutine get_host_devices_stat64(devices, count, stat, errmsg)
    integer(int32), intent(out) :: devices(:)
    integer(int32), intent(out) :: count
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call get_host_devices(devices, count, status, errmsg)
    stat = status
  end subroutine get_host_devices_stat64

end module tcgemm_host_dgemm
