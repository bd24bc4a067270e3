! A program as an existing code would have it: plain Fortran 77-style DGEMM calls, built against -lblas only.
! Run with libtcgemm_blas preloaded (tests/blas/run_blas_program.sh), its results must match a plain loop to
! DGEMM's error bound: |C - C_ref| <= 2 (k + 1) eps |alpha| |A| |B| + 4 eps |beta C0|, element by element.
program dgemm_reference_program
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  integer :: failures, cases
  failures = 0
  cases = 0
  call check('N', 'N', 33, 17, 9, 1.0_dp, 0.0_dp, 0)
  call check('T', 'N', 40, 41, 42, -0.5_dp, 0.25_dp, 3)
  call check('N', 'T', 7, 200, 65, 2.0_dp, 1.0_dp, 1)
  call check('T', 'T', 129, 64, 100, 1.0_dp, -1.0_dp, 0)
  call check('N', 'N', 1, 300, 300, 1.0_dp, 0.0_dp, 0)
  call check('N', 'N', 600, 500, 400, 1.0_dp, 0.5_dp, 2)
  call check('T', 'N', 1000, 1000, 1000, 1.0_dp, 0.0_dp, 0)
  if (failures == 0) then
    print '(a, i0, a)', 'PASS ', cases, ' DGEMM calls match the reference loop'
  else
    print '(a, i0, a, i0)', 'FAIL ', failures, ' of ', cases
    error stop 1
  end if
contains
  subroutine check(ta, tb, m, n, k, alpha, beta, pad)
    character, intent(in) :: ta, tb
    integer, intent(in) :: m, n, k, pad
    real(dp), intent(in) :: alpha, beta
    real(dp), allocatable :: a(:, :), b(:, :), c(:, :), c0(:, :), ref(:, :), bound(:, :)
    integer :: lda, ldb, ldc, i, j, l
    real(dp) :: x, y, p, q, eps
    external :: dgemm
    lda = merge(m, k, ta == 'N') + pad
    ldb = merge(k, n, tb == 'N') + pad
    ldc = m + pad
    allocate(a(lda, merge(k, m, ta == 'N')), b(ldb, merge(n, k, tb == 'N')), c(ldc, n), c0(ldc, n))
    allocate(ref(m, n), bound(m, n))
    call random_number(a)
    call random_number(b)
    call random_number(c0)
    a = a - 0.5_dp
    b = b - 0.5_dp
    c = c0
    call dgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
    eps = epsilon(1.0_dp)
    do j = 1, n
      do i = 1, m
        x = 0
        y = 0
        do l = 1, k
          if (ta == 'N') then
            p = a(i, l)
          else
            p = a(l, i)
          end if
          if (tb == 'N') then
            q = b(l, j)
          else
            q = b(j, l)
          end if
          x = x + p * q
          y = y + abs(p * q)
        end do
        ref(i, j) = alpha * x + beta * c0(i, j)
        bound(i, j) = 2 * (k + 1) * eps * abs(alpha) * y + 4 * eps * abs(beta * c0(i, j)) + tiny(1.0_dp)
      end do
    end do
    cases = cases + 1
    if (any(abs(c(1:m, 1:n) - ref) > bound)) then
      failures = failures + 1
      print '(a, 2a1, 3i6, a, es10.2)', 'mismatch ', ta, tb, m, n, k, ' max err ', maxval(abs(c(1:m, 1:n) - ref))
    end if
    if (pad > 0) then
      if (any(c(m + 1:ldc, :) /= c0(m + 1:ldc, :))) then
        failures = failures + 1
        print '(a)', 'rows past m of C were written'
      end if
    end if
  end subroutine check
end program dgemm_reference_program
