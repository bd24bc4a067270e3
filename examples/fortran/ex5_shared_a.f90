!> Example 5 of the CUDA Fortran tensor-core article: C = A B where each thread block stages its
!> tile_m x 4 slice of A in shared memory and each warp reuses that slice for a tile_m x 8 column
!> of the block's C tile. The shared tile's leading dimension is tile_m + smPad: a padding of a
!> few doubles moves successive columns to different banks and removes the bank conflicts of
!> the 8x4 fragment loads (smPad must keep the leading dimension a multiple of 16 bytes, i.e.
!> be even). Without a padding argument the program sweeps smPad = 0, 2, 4, 6 (Table 2).
!>
!> Usage: tcgemm-fortran-example-ex5_shared_a [tile_m [smPad [nRuns [size]]]]
!>        (default 32, sweep, 20, 3200; tile_m one of 32, 64, 96, 128)
program ex5_shared_a
  use, intrinsic :: iso_fortran_env, only: int64, real64
  use, intrinsic :: ieee_arithmetic, only: ieee_value, ieee_quiet_nan
  use tcgemm
  use cuda_event_timer, only: event_timer, timer_create, timer_start, timer_stop_ms, &
                              timer_destroy
  use example_util, only: int_arg, random_matrix, product_ok, tflops, print_device, print_result
  implicit none

  integer, parameter :: wmma_k = 4
  integer, parameter :: SWEEP_PADS(*) = [0, 2, 4, 6]
  integer :: tile_m, tile_n, n_runs, size_arg, m, n, k, i, run, threads
  integer, allocatable :: pads(:)
  integer(int64) :: smem_bytes
  real(real64), allocatable :: a(:, :), b(:, :), c(:, :)
  real :: ms
  type(tcgemm_device_matrix) :: a_d, b_d, c_d
  type(tcgemm_device_info) :: info
  type(tcgemm_config) :: config
  type(event_timer) :: timer

  tile_m = int_arg(1, 32)
  tile_n = tile_m                       ! as in the article: tile_n = tile_m/wmma_m*wmma_n
  if (command_argument_count() >= 2) then
    allocate(pads(1))
    pads(1) = int_arg(2, 0)
  else
    allocate(pads(size(SWEEP_PADS)))
    pads = SWEEP_PADS
  end if
  n_runs = int_arg(3, 20)
  size_arg = int_arg(4, 3200)
  ! The article rounds the sizes down to whole tiles; the library would take any size.
  m = max(tile_m, (size_arg / tile_m) * tile_m)
  n = max(tile_n, (size_arg / tile_n) * tile_n)
  k = max(wmma_k, (size_arg / wmma_k) * wmma_k)
  allocate(a(m, k), b(k, n), c(m, n))

  call print_device(info)
  call random_matrix(a)
  call random_matrix(b)
  call tcgemm_device_allocate(a_d, source=a)
  call tcgemm_device_allocate(b_d, source=b)
  call tcgemm_device_allocate(c_d, mold=c)
  call timer_create(timer)

  do i = 1, size(pads)
    call tcgemm_default_config(TCGEMM_FAMILY_SHARED_A, config)
    config%tile_m = tile_m
    config%tile_n = tile_n
    config%pad_a = pads(i)
    call tcgemm_config_threads_per_block(config, threads)
    call tcgemm_config_shared_memory_bytes(config, smem_bytes)

    if (i > 1) write (*, '(a)') ''
    write (*, '(a,i0,a,i0,a,i0)') ' M = ', m, ', N = ', n, ', K = ', k
    write (*, '(a,i0,a,i0)') ' tile_m = ', tile_m, ', tile_n = ', tile_n
    write (*, '(a,i0,a)') ' thread block = ', threads, 'x1x1'
    write (*, '(a,i0,a,i0,a)') ' grid = ', (m + tile_m - 1) / tile_m, 'x', &
                               (n + tile_n - 1) / tile_n, 'x1'
    write (*, '(a,i0)') ' shared memory padding (elements): ', pads(i)
    write (*, '(a,i0)') ' shared memory per block (bytes): ', smem_bytes
    write (*, '(a,i0)') ' nRuns: ', n_runs

    call tcgemm_dmma_shared_a(a_d, b_d, c_d, tile_m, pads(i))    ! warm-up
    call timer_start(timer)
    do run = 1, n_runs
      call tcgemm_dmma_shared_a(a_d, b_d, c_d, tile_m, pads(i))
    end do
    ms = timer_stop_ms(timer)
    c = ieee_value(1.0_real64, ieee_quiet_nan)   ! an element the copy misses cannot pass
    call tcgemm_copy(c_d, c)
    call print_result(product_ok(a, b, c), &
                      tflops(int(m, int64), int(n, int64), int(k, int64), n_runs, ms))
  end do

  call timer_destroy(timer)
  call tcgemm_device_deallocate(a_d)
  call tcgemm_device_deallocate(b_d)
  call tcgemm_device_deallocate(c_d)
end program ex5_shared_a
