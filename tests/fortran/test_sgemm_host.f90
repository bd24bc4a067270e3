!> tcgemm_sgemm on real(real32) host arrays. Argument `gpu` (ctest fortran_sgemm_host_gpu): every
!> precision and form against an FP64 reference, with leading dimensions past the rows, the BLAS
!> sub-matrix idiom (a(2, 3) with the parent's lda), beta = 0 over a NaN-poisoned C and padding
!> rows of C that must stay untouched; tolerance from the precision's unit roundoff and k:
!>   |C - ref| <= 2 (2 u_in + (k + 2) u32) |alpha| sum_l |a_il b_lj| + 4 u32 (|ref| + |beta c|).
!> Argument `cpu` (fortran_sgemm_errors_cpu): the argument errors, with or without a GPU: stat,
!> an errmsg naming the argument, C unchanged.
program test_sgemm_host
  use, intrinsic :: iso_fortran_env, only: int64, real32, real64
  use, intrinsic :: ieee_arithmetic, only: ieee_value, ieee_quiet_nan, ieee_is_nan
  use tcgemm
  use test_support
  implicit none

  character(len=16) :: which
  type(tcgemm_device_info) :: info

  call get_command_argument(1, which)
  select case (trim(which))
  case ('cpu')
    call test_errors()
  case ('gpu')
    call skip_without_device(info)
    call test_products()
  case default
    error stop 'usage: test_sgemm_host cpu|gpu'
  end select
  call finish_tests()

contains

  subroutine test_errors()
    real(real32) :: a(10, 5), b(5, 6), c(10, 6), c_before(10, 6)
    integer :: stat
    character(len=512) :: errmsg

    print '(a)', 'host-array tcgemm_sgemm, argument checks'
    a = 1.0
    b = 2.0
    c = 3.0
    c_before = c
    errmsg = ''
    call tcgemm_sgemm('N', 'N', 10, 6, 5, 1.0, a, 9, b, 5, 0.0, c, 10, TCGEMM_PRECISION_TF32, &
                      stat=stat, errmsg=errmsg)
    call expect_status('lda < m', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, ['argument 8 (lda)'])
    errmsg = ''
    call tcgemm_sgemm('N', 'N', 10, 6, 5, 1.0, a, 10, b, 5, 0.0, c, 10, 7, stat=stat, &
                      errmsg=errmsg)
    call expect_status('precision 7', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'argument 14 (precision) = 7'])
    errmsg = ''
    call tcgemm_sgemm('X', 'N', 10, 6, 5, 1.0, a, 10, b, 5, 0.0, c, 10, TCGEMM_PRECISION_FP16, &
                      stat=stat, errmsg=errmsg)
    call expect_status('transa X', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, ['argument 1'])
    errmsg = ''
    call tcgemm_sgemm('N', 'N', 10, 7, 5, 1.0, a, 10, b, 5, 0.0, c, 10, TCGEMM_PRECISION_BF16, &
                      stat=stat, errmsg=errmsg)
    call expect_status('B too small for n = 7', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=24) :: 'argument 9 (b)', 'outside the array'])
    errmsg = ''
    call tcgemm_sgemm('N', 'N', 10, 6, 5, 1.0, a(2:, :), 10, b, 5, 0.0, c, 10, &
                      TCGEMM_PRECISION_FP32, stat=stat, errmsg=errmsg)
    call expect_status('non-contiguous a(2:, :)', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'argument 7 (a)', 'non-contiguous'])
    errmsg = ''
    call tcgemm_sgemm('N', 'N', 10, 7, 5, 1.0, a, 10, b, 5, 0.0, c, 10, 0, stat=stat, &
                      errmsg=errmsg)
    call expect_status('precision 0 and B too small', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'argument 14 (precision) = 0'])
    call expect(tcgemm_last_error_argument() == 14, 'precision 0 and B too small: argument 14 blamed')
    call expect(all(c == c_before), 'C unchanged by every rejected call')
    ! Quick return: m = 0 touches nothing and needs no GPU.
    call tcgemm_sgemm('N', 'N', 0, 6, 5, 1.0, a, 1, b, 5, 0.0, c, 1, TCGEMM_PRECISION_TF32, &
                      stat=stat)
    call expect(stat == 0 .and. all(c == c_before), 'm = 0: quick return, C unchanged')
  end subroutine test_errors

  subroutine test_products()
    character(len=1), parameter :: flags(2) = ['N', 'T']
    integer, parameter :: precisions(4) = [TCGEMM_PRECISION_TF32, TCGEMM_PRECISION_FP16, &
                                           TCGEMM_PRECISION_BF16, TCGEMM_PRECISION_FP32]
    integer :: ip, ia, ib

    do ip = 1, 4
      do ia = 1, 2
        do ib = 1, 2
          call product_case(flags(ia), flags(ib), 37, 29, 23, 1.0, 0.0, precisions(ip))
          call product_case(flags(ia), flags(ib), 264, 136, 200, -1.5, 0.5, precisions(ip))
        end do
      end do
      call product_case('N', 'N', 40, 24, 8, 0.0, 2.0, precisions(ip))   ! alpha = 0: C scaled
      call product_case('T', 'N', 1, 1, 1, 2.0, 0.0, precisions(ip))
    end do
  end subroutine test_products

  !> One call with lda, ldb, ldc past the rows; A and B passed as a(2, 3) / b(2, 3) of parents
  !> whose sub-matrices start there (the BLAS idiom).
  subroutine product_case(transa, transb, m, n, k, alpha, beta, precision)
    character(len=1), intent(in) :: transa, transb
    integer, intent(in) :: m, n, k, precision
    real(real32), intent(in) :: alpha, beta
    real(real32), allocatable :: pa(:, :), pb(:, :), c(:, :), c0(:, :)
    real(real64), allocatable :: x(:, :), y(:, :)
    integer :: ar, ac, br, bc, lda, ldb, ldc, i, j, l, bad, stat
    real(real64) :: ref, mag, tol, u_in, u32, av, bv
    character(len=512) :: errmsg
    character(len=96) :: what

    ar = merge(m, k, transa == 'N')
    ac = merge(k, m, transa == 'N')
    br = merge(k, n, transb == 'N')
    bc = merge(n, k, transb == 'N')
    lda = ar + 4
    ldb = br + 3
    ldc = m + 2
    allocate (pa(lda, ac + 2), pb(ldb, bc + 2), c(ldc, n), c0(ldc, n))
    allocate (x(lda, ac + 2), y(ldb, bc + 2))
    call random_matrix(x)
    call random_matrix(y)
    pa = real(x, real32)
    pb = real(y, real32)
    call random_matrix_32(c0)
    if (beta == 0.0) c0(1:m, :) = ieee_value(1.0_real32, ieee_quiet_nan)
    c0(m + 1:, :) = -7777.25     ! padding rows: never written
    c = c0
    errmsg = ''
    call tcgemm_sgemm(transa, transb, m, n, k, alpha, pa(2, 3), lda, pb(2, 3), ldb, beta, c, ldc, &
                      precision, stat=stat, errmsg=errmsg)
    write (what, '(a,a,a,3(i0,a),a,i0,a,f5.2,a,f5.2)') 'sgemm ', transa, transb, m, 'x', n, 'x', &
          k, ' ', 'precision ', precision, ' alpha ', alpha, ' beta ', beta
    call expect(stat == 0, trim(what) // ': stat 0 ' // trim(errmsg))
    if (stat /= 0) return
    u32 = 2.0_real64**(-24)
    u_in = merge(2.0_real64**(-8), merge(0.0_real64, 2.0_real64**(-11), &
                 precision == TCGEMM_PRECISION_FP32), precision == TCGEMM_PRECISION_BF16)
    bad = 0
    do j = 1, n
      do i = 1, ldc
        if (i > m) then
          if (c(i, j) /= -7777.25) bad = bad + 1
          cycle
        end if
        ref = 0.0_real64
        mag = 0.0_real64
        do l = 1, k
          av = merge(real(pa(1 + i, 2 + l), real64), real(pa(1 + l, 2 + i), real64), transa == 'N')
          bv = merge(real(pb(1 + l, 2 + j), real64), real(pb(1 + j, 2 + l), real64), transb == 'N')
          ref = ref + av * bv
          mag = mag + abs(av * bv)
        end do
        ref = alpha * ref
        tol = 2.0_real64 * (2.0_real64 * u_in + (k + 2) * u32) * abs(alpha) * mag + 4.0_real64 * u32 * abs(ref)
        if (beta /= 0.0) then
          ref = ref + beta * real(c0(i, j), real64)
          tol = tol + 4.0_real64 * u32 * (abs(ref) + abs(beta * real(c0(i, j), real64)))
        end if
        if (ieee_is_nan(c(i, j)) .or. abs(c(i, j) - ref) > tol + 1.0e-30_real64) bad = bad + 1
      end do
    end do
    call expect(bad == 0, trim(what) // ': every element within tolerance, padding untouched')
  end subroutine product_case

  subroutine random_matrix_32(a)
    real(real32), intent(out) :: a(:, :)
    real(real64), allocatable :: t(:, :)
    allocate (t(size(a, 1), size(a, 2)))
    call random_matrix(t)
    a = real(t, real32)
  end subroutine random_matrix_32

end program test_sgemm_host
