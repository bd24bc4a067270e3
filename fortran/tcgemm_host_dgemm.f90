!> Part of module tcgemm (fortran/tcgemm.f90 lists the parts): DGEMM on host arrays, the BLAS
!> form, tcgemm_release_workspace for the device buffers it keeps, and tcgemm_host_register /
!> tcgemm_host_unregister to pin host arrays.
!>
!> dgemm_host_* are the host-array forms of the generic tcgemm_dgemm (assembled in module
!> tcgemm). Programs `use tcgemm`, not this module.
module tcgemm_host_dgemm
  use, intrinsic :: iso_fortran_env, only: int32, int64, real64
  use, intrinsic :: iso_c_binding, only: c_char, c_loc, c_int64_t
  use tcgemm_c, only: c_tcgemm_dgemm_host, c_tcgemm_release_workspace, c_tcgemm_host_register, &
                      c_tcgemm_host_unregister
  use tcgemm_errors, only: finish
  implicit none
  private

  public :: dgemm_host_i32_r2, dgemm_host_i64_r2, dgemm_host_i32_r1, dgemm_host_i64_r1
  public :: tcgemm_release_workspace, tcgemm_host_register, tcgemm_host_unregister

  !> Pin (page-lock) a contiguous real64 host array for fast copies to the GPU, and undo it.
  interface tcgemm_host_register
    module procedure host_register_r1, host_register_r2
  end interface tcgemm_host_register
  interface tcgemm_host_unregister
    module procedure host_unregister_r1, host_unregister_r2
  end interface tcgemm_host_unregister

contains

  !> Host-array DGEMM with 64-bit sizes on element sequences (all host specifics end here).
  subroutine dgemm_host_core(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, &
                             stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    integer(int64), intent(in) :: m, n, k, lda, ldb, ldc
    real(real64), intent(in) :: alpha, beta
    real(real64), intent(in) :: a(*), b(*)
    real(real64), intent(inout) :: c(*)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(kind=c_char) :: c_transa, c_transb

    ! Copy the flags into local c_char variables before passing them by value: gfortran 12
    ! passes a character dummy argument handed on to a `character(kind=c_char), value` dummy
    ! as (part of) its address instead of its value. tests/fortran/test_errors_cpu catches it.
    c_transa = transa
    c_transb = transb
    call finish(c_tcgemm_dgemm_host(c_transa, c_transb, m, n, k, alpha, a, lda, b, ldb, beta, &
                                    c, ldc), 'tcgemm_dgemm', stat, errmsg)
  end subroutine dgemm_host_core

  !> Host arrays a(lda,*), b(ldb,*), c(ldc,*), default-integer sizes (BLAS dgemm).
  subroutine dgemm_host_i32_r2(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, &
                               stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    integer(int32), intent(in) :: m, n, k, lda, ldb, ldc
    real(real64), intent(in) :: alpha, beta
    real(real64), intent(in) :: a(lda, *), b(ldb, *)
    real(real64), intent(inout) :: c(ldc, *)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call dgemm_host_core(transa, transb, int(m, int64), int(n, int64), int(k, int64), alpha, &
                         a, int(lda, int64), b, int(ldb, int64), beta, c, int(ldc, int64), &
                         stat, errmsg)
  end subroutine dgemm_host_i32_r2

  !> Host arrays a(lda,*), b(ldb,*), c(ldc,*), int64 sizes.
  subroutine dgemm_host_i64_r2(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, &
                               stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    integer(int64), intent(in) :: m, n, k, lda, ldb, ldc
    real(real64), intent(in) :: alpha, beta
    real(real64), intent(in) :: a(lda, *), b(ldb, *)
    real(real64), intent(inout) :: c(ldc, *)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call dgemm_host_core(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, &
                         stat, errmsg)
  end subroutine dgemm_host_i64_r2

  !> Host arrays stored as rank-1 element sequences, default-integer sizes.
  subroutine dgemm_host_i32_r1(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, &
                               stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    integer(int32), intent(in) :: m, n, k, lda, ldb, ldc
    real(real64), intent(in) :: alpha, beta
    real(real64), intent(in) :: a(*), b(*)
    real(real64), intent(inout) :: c(*)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call dgemm_host_core(transa, transb, int(m, int64), int(n, int64), int(k, int64), alpha, &
                         a, int(lda, int64), b, int(ldb, int64), beta, c, int(ldc, int64), &
                         stat, errmsg)
  end subroutine dgemm_host_i32_r1

  !> Host arrays stored as rank-1 element sequences, int64 sizes.
  subroutine dgemm_host_i64_r1(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, &
                               stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    integer(int64), intent(in) :: m, n, k, lda, ldb, ldc
    real(real64), intent(in) :: alpha, beta
    real(real64), intent(in) :: a(*), b(*)
    real(real64), intent(inout) :: c(*)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call dgemm_host_core(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, &
                         stat, errmsg)
  end subroutine dgemm_host_i64_r1

  !> Pin a contiguous host array (rank 1 or 2) for direct-DMA copies; host_unregister_* undo it.
  subroutine host_register_r1(x, stat, errmsg)
    real(real64), intent(in), target, contiguous :: x(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call finish(c_tcgemm_host_register(c_loc(x), int(size(x), c_int64_t) * 8_c_int64_t), &
                'tcgemm_host_register', stat, errmsg)
  end subroutine host_register_r1

  subroutine host_register_r2(x, stat, errmsg)
    real(real64), intent(in), target, contiguous :: x(:, :)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call finish(c_tcgemm_host_register(c_loc(x), int(size(x), c_int64_t) * 8_c_int64_t), &
                'tcgemm_host_register', stat, errmsg)
  end subroutine host_register_r2

  subroutine host_unregister_r1(x, stat, errmsg)
    real(real64), intent(in), target, contiguous :: x(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call finish(c_tcgemm_host_unregister(c_loc(x)), 'tcgemm_host_unregister', stat, errmsg)
  end subroutine host_unregister_r1

  subroutine host_unregister_r2(x, stat, errmsg)
    real(real64), intent(in), target, contiguous :: x(:, :)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call finish(c_tcgemm_host_unregister(c_loc(x)), 'tcgemm_host_unregister', stat, errmsg)
  end subroutine host_unregister_r2

  !> Return to the device all memory of the buffer pool that host-array tcgemm_dgemm calls
  !> draw from (the pool of the current device, shared by all threads).
  subroutine tcgemm_release_workspace(stat, errmsg)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call finish(c_tcgemm_release_workspace(), 'tcgemm_release_workspace', stat, errmsg)
  end subroutine tcgemm_release_workspace

end module tcgemm_host_dgemm
