!> SGEMM on ordinary real(real32) Fortran arrays, in each precision the tensor cores offer.
!>
!>   C <- alpha * A * B + beta * C       (A is m x k, B is k x n, C is m x n, all real(4))
!>
!> tcgemm_sgemm takes BLAS sgemm's arguments plus a precision: TCGEMM_PRECISION_TF32 (inputs
!> rounded to TF32, 10 bits of mantissa), _FP16 (converted to half precision: 10 bits, range
!> +-65504), _BF16 (bfloat16: 7 bits, FP32's range), all three with FP32 accumulation on the
!> tensor cores, or _FP32 (exact single precision on the CUDA cores). gfortran has no real(2):
!> this is how real(4) data reaches the FP16 and BF16 tensor cores. The library copies what the
!> call uses to the GPU and C back. Each precision's error is printed against an FP64 product
!> of the same real(4) inputs, next to its unit roundoff u.
!>
!> Usage: tcgemm-fortran-example-sgemm_precisions [M N K]     (default 1024 768 512)
program sgemm_precisions
  use, intrinsic :: iso_fortran_env, only: int64, real32, real64
  use tcgemm, only: tcgemm_sgemm, TCGEMM_PRECISION_TF32, TCGEMM_PRECISION_FP16, &
                    TCGEMM_PRECISION_BF16, TCGEMM_PRECISION_FP32
  implicit none

  character(len=4), parameter :: names(4) = ['TF32', 'FP16', 'BF16', 'FP32']
  integer, parameter :: precisions(4) = [TCGEMM_PRECISION_TF32, TCGEMM_PRECISION_FP16, &
                                         TCGEMM_PRECISION_BF16, TCGEMM_PRECISION_FP32]
  real(real64), parameter :: unit_roundoff(4) = [2.0_real64**(-11), 2.0_real64**(-11), &
                                                 2.0_real64**(-8), 2.0_real64**(-24)]
  integer :: m, n, k, ip, call_no, stat
  real(real32), allocatable :: a(:, :), b(:, :), c(:, :)
  real(real64), allocatable :: expected(:, :)
  real(real64) :: seconds, err
  integer(int64) :: t0, t1, rate
  character(len=256) :: errmsg

  m = int_arg(1, 1024)
  n = int_arg(2, 768)
  k = int_arg(3, 512)
  allocate (a(m, k), b(k, n), c(m, n))
  call random_number(a)
  call random_number(b)
  a = 2 * a - 1
  b = 2 * b - 1
  expected = matmul(real(a, real64), real(b, real64))
  print '(a,i0,a,i0,a,i0,a)', ' M = ', m, ', N = ', n, ', K = ', k, ', inputs uniform in [-1, 1)'
  print '(a)', ' precision      ms   GFLOP/s (with copies)   ||C - C_fp64|| / ||C_fp64||     u'
  do ip = 1, 4
    ! The first call of a precision pays for start-up; the second is timed.
    do call_no = 1, 2
      c = -1
      call system_clock(t0, rate)
      call tcgemm_sgemm('N', 'N', m, n, k, 1.0, a, m, b, k, 0.0, c, m, precisions(ip), &
                        stat=stat, errmsg=errmsg)
      call system_clock(t1)
      if (stat /= 0) then
        print '(a)', trim(errmsg)
        error stop 1
      end if
    end do
    seconds = real(t1 - t0, real64) / real(rate, real64)
    err = norm2(real(c, real64) - expected) / norm2(expected)
    print '(2x,a4,f12.3,f12.1,es33.2,es10.2)', names(ip), 1.0e3_real64 * seconds, &
          2.0e-9_real64 * m * n * k / seconds, err, unit_roundoff(ip)
    ! The rounding of the inputs dominates: about half of u, whatever k.
    if (err > unit_roundoff(ip) + 4 * k * 2.0_real64**(-24)) then
      print '(a)', ' Test FAILED: error above the precision''s bound'
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
end program sgemm_precisions
