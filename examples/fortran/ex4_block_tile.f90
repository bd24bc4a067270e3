!> Example 4 of the CUDA Fortran tensor-core article: C = A B with a tile_m x tile_n tile of C per
!> thread block, one warp per 8x8 sub-tile, so a 16x16 C is one block of four warps. Every warp
!> still loads its A and B fragments from global memory (each is loaded tile_n/8 resp. tile_m/8
!> times per block): the redundancy Examples 5 and 6 remove with shared memory.
!>
!> Usage: tcgemm-fortran-example-ex4_block_tile [M N K [tile_m tile_n]]
!>        (default 16 16 16 16 16, as in the article's code)
program ex4_block_tile
  use, intrinsic :: iso_fortran_env, only: real64
  use tcgemm
  use example_util, only: int_arg, random_matrix, product_ok, print_device, print_result
  implicit none

  integer :: m, n, k, tile_m, tile_n, threads
  real(real64), allocatable :: a(:, :), b(:, :), c(:, :)
  type(tcgemm_device_matrix) :: a_d, b_d, c_d
  type(tcgemm_device_info) :: info
  type(tcgemm_config) :: config

  m = int_arg(1, 16)
  n = int_arg(2, 16)
  k = int_arg(3, 16)
  tile_m = int_arg(4, 16)
  tile_n = int_arg(5, 16)
  allocate(a(m, k), b(k, n), c(m, n))

  call print_device(info)
  call tcgemm_default_config(TCGEMM_FAMILY_BLOCK_TILE, config)
  config%tile_m = tile_m
  config%tile_n = tile_n
  call tcgemm_config_threads_per_block(config, threads)   ! also rejects a bad tile, by name
  write (*, '(a,i0,a,i0,a,i0)') ' M = ', m, ', N = ', n, ', K = ', k
  write (*, '(a,i0,a,i0)') ' tile_m = ', tile_m, ', tile_n = ', tile_n
  write (*, '(a,i0,a)') ' thread block = ', threads, ' threads'
  write (*, '(a,i0,a,i0,a)') ' grid = ', (m + tile_m - 1) / tile_m, 'x', &
                             (n + tile_n - 1) / tile_n, 'x1'

  call random_matrix(a)
  call random_matrix(b)
  call tcgemm_device_allocate(a_d, source=a)
  call tcgemm_device_allocate(b_d, source=b)
  call tcgemm_device_allocate(c_d, mold=c)

  call tcgemm_dmma_block_tile(a_d, b_d, c_d, tile_m, tile_n)
  call tcgemm_copy(c_d, c)

  call print_result(product_ok(a, b, c))
  call tcgemm_device_deallocate(a_d)
  call tcgemm_device_deallocate(b_d)
  call tcgemm_device_deallocate(c_d)
end program ex4_block_tile
