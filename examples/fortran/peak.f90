!> The artificial benchmark of the CUDA Fortran tensor-core article (its Figure 1): every warp
!> loads one 8x4 A and one 4x8 B fragment, runs niter mma_sync on them, and stores its 8x8 tile
!> of C. Sweeping niter shows how far load/store cost must be amortized before the tensor cores,
!> not memory, set the pace; the plateau is the FP64 WMMA (m8n8k4) instruction ceiling of the GPU
!> (the H100's is in bench/results/).
!>
!> The result is real and checked: each 8x8 tile of C must equal niter * (A B) exactly (A and B
!> hold small integers, so every sum is exact in FP64).
!>
!> Usage: tcgemm-fortran-example-peak [M N [nRuns [max_niter]]]   (default 2048 2048 10 4096)
program peak
  use, intrinsic :: iso_fortran_env, only: int64, real64
  use tcgemm
  use cuda_event_timer, only: event_timer, timer_create, timer_start, timer_stop_ms, &
                              timer_destroy
  use example_util, only: int_arg, integer_valued_matrix, print_device, print_result
  implicit none

  integer, parameter :: wmma_m = 8, wmma_n = 8, wmma_k = 4
  !> Flops of one m8n8k4 mma: 8*8*4 multiply-adds.
  integer(int64), parameter :: FLOPS_PER_MMA = 2_int64 * wmma_m * wmma_n * wmma_k
  !> Largest magnitude of the integer entries of A and B.
  integer, parameter :: VALUE_RANGE = 2

  integer :: m, n, n_runs, max_niter, niter, run, i, j, threads
  integer(int64) :: tiles
  real(real64) :: a(wmma_m, wmma_k), b(wmma_k, wmma_n), ab(wmma_m, wmma_n)
  real(real64), allocatable :: c(:, :)
  real :: ms
  real(real64) :: rate
  logical :: ok, all_ok
  type(tcgemm_device_matrix) :: a_d, b_d, c_d
  type(tcgemm_device_info) :: info
  type(tcgemm_config) :: config
  type(event_timer) :: timer

  m = int_arg(1, 2048)
  n = int_arg(2, 2048)
  n_runs = int_arg(3, 10)
  max_niter = int_arg(4, 4096)
  tiles = int((m + wmma_m - 1) / wmma_m, int64) * int((n + wmma_n - 1) / wmma_n, int64)
  allocate(c(m, n))

  call print_device(info)
  call tcgemm_default_config(TCGEMM_FAMILY_PEAK, config)
  call tcgemm_config_threads_per_block(config, threads)
  write (*, '(a,i0,a,i0,a,i0,a)') ' C = ', m, ' x ', n, ' (', tiles, ' warps, one 8x8 tile each)'
  write (*, '(a,i0,a,i0,a,i0)') ' block tile = ', config%tile_m, ' x ', config%tile_n, &
                                ', thread block = ', threads
  write (*, '(a,i0)') ' nRuns: ', n_runs
  write (*, '(/,a)') '     niter      TFlops'

  call integer_valued_matrix(a, VALUE_RANGE)
  call integer_valued_matrix(b, VALUE_RANGE)
  ab = matmul(a, b)
  call tcgemm_device_allocate(a_d, source=a)
  call tcgemm_device_allocate(b_d, source=b)
  call tcgemm_device_allocate(c_d, mold=c)
  call timer_create(timer)

  all_ok = .true.
  niter = 1
  do while (niter <= max_niter)
    call tcgemm_dmma_peak(a_d, b_d, c_d, niter)            ! warm-up: clocks up, code loaded
    call timer_start(timer)
    do run = 1, n_runs
      call tcgemm_dmma_peak(a_d, b_d, c_d, niter)
    end do
    ms = timer_stop_ms(timer)
    rate = real(FLOPS_PER_MMA * niter * tiles, real64) * n_runs &
           / (ms * 1.0e-3_real64) / 1.0e12_real64

    call tcgemm_copy(c_d, c)
    ok = .true.
    do j = 1, n
      do i = 1, m
        ok = ok .and. c(i, j) == niter * ab(modulo(i - 1, wmma_m) + 1, modulo(j - 1, wmma_n) + 1)
      end do
    end do
    all_ok = all_ok .and. ok
    write (*, '(i10,f12.3,a)') niter, rate, merge('         ', '  (WRONG)', ok)
    niter = 2 * niter
  end do

  call timer_destroy(timer)
  call tcgemm_device_deallocate(a_d)
  call tcgemm_device_deallocate(b_d)
  call tcgemm_device_deallocate(c_d)
  call print_result(all_ok)
end program peak
