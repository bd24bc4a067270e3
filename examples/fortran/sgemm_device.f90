!> SGEMM on real(real32) matrices that stay in device memory, in each precision, and on a block.
!>
!>   C <- alpha * A * B + beta * C       (A is m x k, B is k x n, C is m x n, all real(4))
!>
!> type(tcgemm_device_matrix_r32) holds a real(real32) matrix on the GPU: tcgemm_device_allocate
!> (`source=` uploads a host array), tcgemm_copy and tcgemm_device_deallocate manage it, as they
!> do type(tcgemm_device_matrix) for real(real64). `call tcgemm_sgemm(transa, transb, alpha,
!> a_d, b_d, beta, c_d, precision)` multiplies on the device without copies, asynchronously (here
!> on the default stream; tcgemm_synchronize waits for it), in TF32, FP16 or BF16 on the tensor
!> cores with FP32 accumulation, or exactly in FP32 on the CUDA cores. Operands uploaded once serve
!> every call; only C comes back, when the program asks for it.
!>
!> Last, the BLAS sub-matrix idiom on the device: tcgemm_device_view picks a block of C (and of
!> A), which tcgemm_sgemm updates in place while the rest of C stays as it was.
!>
!> Each precision's error is printed against an FP64 product of the same real(4) inputs, next to
!> its unit roundoff u; an error above u + 4 k 2^-24 prints "Test FAILED" and stops with a
!> non-zero status.
!>
!> Usage: tcgemm-fortran-example-sgemm_device [M N K]     (default 2048 1536 1024)
program sgemm_device
  use, intrinsic :: iso_fortran_env, only: int64, real32, real64
  use tcgemm, only: tcgemm_device_matrix_r32, tcgemm_device_allocate, tcgemm_device_deallocate, &
                    tcgemm_copy, tcgemm_device_view, tcgemm_sgemm, tcgemm_synchronize, &
                    TCGEMM_PRECISION_TF32, TCGEMM_PRECISION_FP16, TCGEMM_PRECISION_BF16, &
                    TCGEMM_PRECISION_FP32
  use example_util, only: int_arg
  implicit none

  character(len=4), parameter :: names(4) = ['TF32', 'FP16', 'BF16', 'FP32']
  integer, parameter :: precisions(4) = [TCGEMM_PRECISION_TF32, TCGEMM_PRECISION_FP16, &
                                         TCGEMM_PRECISION_BF16, TCGEMM_PRECISION_FP32]
  real(real64), parameter :: unit_roundoff(4) = [2.0_real64**(-11), 2.0_real64**(-11), &
                                                 2.0_real64**(-8), 2.0_real64**(-24)]
  integer :: m, n, k, ip, call_no
  real(real32), allocatable :: a(:, :), b(:, :), c(:, :), c_before(:, :)
  real(real64), allocatable :: expected(:, :)
  type(tcgemm_device_matrix_r32) :: a_d, b_d, c_d, a_block, c_block
  real(real64) :: seconds, err
  integer(int64) :: t0, t1, rate
  logical :: passed

  m = int_arg(1, 2048)
  n = int_arg(2, 1536)
  k = int_arg(3, 1024)
  allocate (a(m, k), b(k, n), c(m, n))
  call random_number(a)
  call random_number(b)
  a = 2 * a - 1
  b = 2 * b - 1
  expected = matmul(real(a, real64), real(b, real64))

  ! Without stat a failure stops the program with the library's message (no GPU included).
  call tcgemm_device_allocate(a_d, source=a)
  call tcgemm_device_allocate(b_d, source=b)
  call tcgemm_device_allocate(c_d, m, n)
  passed = .true.

  print '(a,i0,a,i0,a,i0,a)', ' M = ', m, ', N = ', n, ', K = ', k, ', inputs uniform in [-1, 1)'
  print '(a)', ' precision      ms   GFLOP/s (device only)   ||C - C_fp64|| / ||C_fp64||     u'
  do ip = 1, 4
    ! The first call of a precision pays for start-up; the second is timed.
    do call_no = 1, 2
      call tcgemm_synchronize()
      call system_clock(t0, rate)
      call tcgemm_sgemm('N', 'N', 1.0, a_d, b_d, 0.0, c_d, precisions(ip))
      call tcgemm_synchronize()
      call system_clock(t1)
    end do
    seconds = max(real(t1 - t0, real64), 1.0_real64) / real(rate, real64)
    call tcgemm_copy(c_d, c)
    err = norm2(real(c, real64) - expected) / norm2(expected)
    print '(2x,a4,f12.3,f12.1,es33.2,es10.2)', names(ip), 1.0e3_real64 * seconds, &
          2.0e-9_real64 * m * n * k / seconds, err, unit_roundoff(ip)
    ! The rounding of the inputs dominates: about half of u, whatever k.
    if (err > unit_roundoff(ip) + 4 * k * 2.0_real64**(-24)) then
      print '(a,a,a)', ' Test FAILED: ', names(ip), ' error above the precision''s bound'
      passed = .false.
    end if
  end do

  call update_block()

  call tcgemm_device_deallocate(a_d)
  call tcgemm_device_deallocate(b_d)
  call tcgemm_device_deallocate(c_d)
  if (.not. passed) error stop 1
  print '(a)', ' Test passed'

contains

  !> C(i0:i0+mb-1, :) <- C(i0:i0+mb-1, :) - A(i0:i0+mb-1, :) B in FP32: the views are the
  !> device's `c(i0, 1), ldc` and `a(i0, 1), lda`; the rows of C outside the block keep the last
  !> product (FP32) exactly.
  subroutine update_block()
    integer :: i0, mb
    real(real64) :: block_err, outside_change

    i0 = m / 4 + 1
    mb = max(1, m / 2)
    call tcgemm_copy(c_d, c)
    c_before = c
    a_block = tcgemm_device_view(a_d, i0, 1, mb, k)
    c_block = tcgemm_device_view(c_d, i0, 1, mb, n)
    call tcgemm_sgemm('N', 'N', -1.0, a_block, b_d, 1.0, c_block, TCGEMM_PRECISION_FP32)
    call tcgemm_copy(c_d, c)       ! synchronous: waits for the product on the default stream
    ! The block now holds C_fp32 - A B: what is left is the FP32 product's own rounding.
    block_err = maxval(abs(real(c(i0:i0 + mb - 1, :), real64))) / maxval(abs(expected))
    c_before(i0:i0 + mb - 1, :) = c(i0:i0 + mb - 1, :)     ! the block is checked above
    outside_change = maxval(abs(c - c_before))
    print '(a,i0,a,i0,a,es9.2,a,es9.2)', ' block update, rows ', i0, ' to ', i0 + mb - 1, &
          ': max |C - A B| / max |A B| = ', block_err, ', change outside the block = ', &
          outside_change
    if (block_err > 4 * k * 2.0_real64**(-24) .or. outside_change /= 0) then
      print '(a)', ' Test FAILED: the block update through views'
      passed = .false.
    end if
  end subroutine update_block
end program sgemm_device
