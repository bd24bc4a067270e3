!> Start here: DGEMM on ordinary Fortran arrays with the tensor cores, exactly like BLAS dgemm.
!>
!>   C <- alpha * A * B + beta * C       (A is m x k, B is k x n, C is m x n)
!>
!> tcgemm_dgemm copies A, B (and C, as beta /= 0) to the GPU, multiplies there, copies C back and
!> returns when C is ready. Its device buffers are reused by the next call of a similar size.
!> The optional stat/errmsg arguments work like ALLOCATE's; without them an error stops the
!> program with the library's message (try lda = m - 1).
!>
!> Usage: tcgemm-fortran-example-dgemm_host [M N K]     (default 1000 800 600)
program dgemm_host
  use, intrinsic :: iso_fortran_env, only: int64, real64
  use tcgemm, only: tcgemm_dgemm
  implicit none

  integer :: m, n, k, lda, ldb, ldc, stat, call_no
  real(real64), allocatable :: a(:, :), b(:, :), c(:, :), c0(:, :), expected(:, :), bound(:, :)
  real(real64) :: alpha, beta, seconds
  integer(int64) :: t0, t1, rate
  character(len=256) :: errmsg

  m = int_arg(1, 1000)
  n = int_arg(2, 800)
  k = int_arg(3, 600)
  lda = m
  ldb = k
  ldc = m
  alpha = 1.5_real64
  beta = -0.5_real64
  allocate(a(lda, k), b(ldb, n), c(ldc, n), c0(ldc, n), expected(ldc, n), bound(ldc, n))
  call random_number(a)
  call random_number(b)
  call random_number(c0)
  a = a - 0.5_real64
  b = b - 0.5_real64
  c0 = c0 - 0.5_real64

  ! Host reference, and the rounding bound of a k-term dot product, elementwise (the GPU's
  ! result and matmul's each contribute one such error).
  expected = alpha * matmul(a, b) + beta * c0
  bound = 2 * (k + 2) * epsilon(1.0_real64) * (abs(alpha) * matmul(abs(a), abs(b)) + abs(beta * c0))
  print '(a,i0,a,i0,a,i0)', ' M = ', m, ', N = ', n, ', K = ', k

  ! The first call also pays for CUDA start-up and allocates the device buffers; the second
  ! reuses them and costs the copies plus the multiply.
  do call_no = 1, 2
    c = c0
    call system_clock(t0, rate)
    call tcgemm_dgemm('N', 'N', m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, stat=stat, &
                      errmsg=errmsg)
    call system_clock(t1)
    if (stat /= 0) then
      print '(a)', trim(errmsg)
      error stop 1
    end if
    seconds = real(t1 - t0, real64) / real(rate, real64)
    print '(a,i0,a,f10.3,a,f9.1,a)', ' call ', call_no, ': ', 1.0e3_real64 * seconds, ' ms, ', &
          2.0e-9_real64 * m * n * k / seconds, ' GFLOP/s including the copies'
    if (.not. all(abs(c - expected) <= bound)) then
      print '(a,es10.3)', ' Test FAILED, max |error| = ', maxval(abs(c - expected))
      error stop 1
    end if
  end do
  print '(a)', ' Test passed'

contains

  !> The i-th command-line argument as an integer, or `default` when it is absent.
  integer function int_arg(i, default)
    integer, intent(in) :: i, default
    character(len=32) :: text
    int_arg = default
    if (command_argument_count() < i) return
    call get_command_argument(i, text)
    read (text, *) int_arg
  end function int_arg
end program dgemm_host
