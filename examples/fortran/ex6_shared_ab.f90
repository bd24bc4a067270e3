!> Example 6 of the CUDA Fortran tensor-core article: C = A B with both a tile x tile_k slice of A and
!> a tile_k x tile slice of B in dynamic shared memory. A deeper tile_k reuses every loaded
!> element for more mma operations without needing more accumulator registers (those depend on
!> the C tile only). Each warp computes an 8-row block row of the C tile, with k outermost so
!> its A fragment is reused across the row. Paddings smPadA/smPadB lengthen the shared tiles'
!> leading dimensions to spread fragment loads over the shared-memory banks.
!>
!> Usage: tcgemm-fortran-example-ex6_shared_ab [tile [tile_k [smPadA [smPadB [nRuns [size]]]]]]
!>        (default 64 32 4 4 20 3200: the best case of the article's Table 3)
program ex6_shared_ab
  use, intrinsic :: iso_fortran_env, only: int64, real64
  use, intrinsic :: ieee_arithmetic, only: ieee_value, ieee_quiet_nan
  use tcgemm
  use cuda_event_timer, only: event_timer, timer_create, timer_start, timer_stop_ms, &
                              timer_destroy
  use example_util, only: int_arg, random_matrix, product_ok, tflops, print_device, print_result
  implicit none

  integer :: tile, tile_k, pad_a, pad_b, n_runs, size_arg, m, n, k, run, threads
  integer(int64) :: smem_bytes
  real(real64), allocatable :: a(:, :), b(:, :), c(:, :)
  real :: ms
  type(tcgemm_device_matrix) :: a_d, b_d, c_d
  type(tcgemm_device_info) :: info
  type(tcgemm_config) :: config
  type(event_timer) :: timer

  tile = int_arg(1, 64)
  tile_k = int_arg(2, 32)
  pad_a = int_arg(3, 4)
  pad_b = int_arg(4, 4)
  n_runs = int_arg(5, 20)
  size_arg = int_arg(6, 3200)
  ! The article rounds the sizes down to whole tiles; the library would take any size.
  m = max(tile, (size_arg / tile) * tile)
  n = m
  k = max(tile_k, (size_arg / tile_k) * tile_k)
  allocate(a(m, k), b(k, n), c(m, n))

  call print_device(info)
  call tcgemm_default_config(TCGEMM_FAMILY_SHARED_AB, config)
  config%tile_m = tile
  config%tile_n = tile
  config%tile_k = tile_k
  config%pad_a = pad_a
  config%pad_b = pad_b
  call tcgemm_config_threads_per_block(config, threads)
  call tcgemm_config_shared_memory_bytes(config, smem_bytes)
  write (*, '(a,i0,a,i0,a,i0)') ' M = ', m, ', N = ', n, ', K = ', k
  write (*, '(a,i0,a,i0,a,i0)') ' tile_m = ', tile, ', tile_n = ', tile, ', tile_k = ', tile_k
  write (*, '(a,i0,a)') ' thread block = ', threads, 'x1x1'
  write (*, '(a,i0,a,i0,a)') ' grid = ', (m + tile - 1) / tile, 'x', (n + tile - 1) / tile, 'x1'
  write (*, '(a,i0,a,i0)') ' shared memory padding (elements): smPadA = ', pad_a, &
                           ', smPadB = ', pad_b
  write (*, '(a,i0,a,i0,a)') ' dynamic shared memory (bytes): ', smem_bytes, &
                             ' (pipeline stages: ', config%stages, ')'
  write (*, '(a,i0)') ' nRuns: ', n_runs

  call random_matrix(a)
  call random_matrix(b)
  call tcgemm_device_allocate(a_d, source=a)
  call tcgemm_device_allocate(b_d, source=b)
  call tcgemm_device_allocate(c_d, mold=c)
  call timer_create(timer)

  call tcgemm_dmma_shared_ab(a_d, b_d, c_d, tile, tile_k, pad_a, pad_b)     ! warm-up
  call timer_start(timer)
  do run = 1, n_runs
    call tcgemm_dmma_shared_ab(a_d, b_d, c_d, tile, tile_k, pad_a, pad_b)
  end do
  ms = timer_stop_ms(timer)

  c = ieee_value(1.0_real64, ieee_quiet_nan)   ! an element the copy misses cannot pass
  call tcgemm_copy(c_d, c)
  call print_result(product_ok(a, b, c), &
                    tflops(int(m, int64), int(n, int64), int(k, int64), n_runs, ms))

  call timer_destroy(timer)
  call tcgemm_device_deallocate(a_d)
  call tcgemm_device_deallocate(b_d)
  call tcgemm_device_deallocate(c_d)
end program ex6_shared_ab
