!> Error paths of module tcgemm, on a machine with or without a GPU: every rejected call must
!> return the right stat, an errmsg naming the argument and the rule, leave its outputs alone,
!> and not crash. Device-matrix wrappers are given fake device pointers (host addresses): the
!> library validates before it touches the GPU, so a rejected call never dereferences them.
program test_errors_cpu
  use, intrinsic :: iso_fortran_env, only: int64, real64
  use, intrinsic :: iso_c_binding, only: c_loc, c_null_ptr
  use tcgemm
  use test_support
  implicit none

  integer, parameter :: MSG_LEN = 512
  !> Host storage behind the fake device pointers (never read by a rejected call).
  real(real64), target :: fake_storage(64 * 64)

  call test_host_dgemm()
  call test_host_dgemm_kinds_and_ranks()
  call test_quick_returns()
  call test_family_configs()
  call test_device_dgemm_arguments()
  call test_shape_checks()
  call test_allocation_and_copies()
  call test_configurations()
  call test_strings()
  call test_errmsg_handling()
  call test_error_argument()
  call test_host_devices()
  call finish_tests()

contains

  !> A device-matrix handle over host memory, for calls that must be rejected before launch.
  function fake(rows, cols, ld) result(d)
    integer, intent(in) :: rows, cols
    integer, intent(in), optional :: ld
    type(tcgemm_device_matrix) :: d
    d%ptr = c_loc(fake_storage)
    d%rows = rows
    d%cols = cols
    d%ld = max(1, rows)
    if (present(ld)) d%ld = ld
  end function fake

  subroutine test_host_dgemm()
    real(real64) :: a(10, 5), b(5, 6), c(10, 6), c_before(10, 6)
    type(tcgemm_plan) :: plan
    integer :: stat
    character(len=MSG_LEN) :: errmsg

    print '(a)', 'host-array tcgemm_dgemm, BLAS argument checks'
    call random_matrix(a)
    call random_matrix(b)
    call random_matrix(c)
    c_before = c

    call tcgemm_dgemm('N', 'N', 10, 6, 5, 1.0_real64, a, 9, b, 5, 0.0_real64, c, 10, &
                      stat=stat, errmsg=errmsg)
    call expect_status('lda < m', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'tcgemm_dgemm', 'argument 8 (lda)', 'max(1, m)'])
    call expect(all(c == c_before), 'lda < m: C untouched')

    call tcgemm_dgemm('N', 'N', -1, 6, 5, 1.0_real64, a, 10, b, 5, 0.0_real64, c, 10, &
                      stat=stat, errmsg=errmsg)
    call expect_status('m < 0', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'argument 3 (m)', '>= 0'])

    call tcgemm_dgemm('N', 'N', 10, 6, -5, 1.0_real64, a, 10, b, 5, 0.0_real64, c, 10, &
                      stat=stat, errmsg=errmsg)
    call expect_status('k < 0', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'argument 5 (k)'])

    call tcgemm_dgemm('X', 'N', 10, 6, 5, 1.0_real64, a, 10, b, 5, 0.0_real64, c, 10, &
                      stat=stat, errmsg=errmsg)
    call expect_status('transa = X', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'argument 1 (transa)', "'X'"])

    call tcgemm_dgemm('N', 'T', 10, 6, 5, 1.0_real64, a, 10, b, 5, 0.0_real64, c, 10, &
                      stat=stat, errmsg=errmsg)
    call expect_status('transb = T, ldb < n', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'argument 10 (ldb)', 'max(1, n)'])

    call tcgemm_dgemm('N', 'N', 10, 6, 5, 1.0_real64, a, 10, b, 5, 0.0_real64, c, 8, &
                      stat=stat, errmsg=errmsg)
    call expect_status('ldc < m', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'argument 13 (ldc)'])
    call expect(all(c == c_before), 'every rejected call left C untouched')

    ! tcgemm_dgemm_plan checks its arguments before it asks for a device.
    call tcgemm_dgemm_plan('X', 'N', 10_int64, 6_int64, 5_int64, plan, stat=stat, errmsg=errmsg)
    call expect_status('plan transa = X', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'tcgemm_dgemm_plan', 'argument 1 (transa)'])
    call tcgemm_dgemm_plan('N', 'N', 10_int64, -6_int64, 5_int64, plan, stat=stat, errmsg=errmsg)
    call expect_status('plan n < 0', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'argument 4 (n)', '>= 0'])
    call tcgemm_dgemm_plan('N', 'N', 10, 6, -5, plan, stat=stat, errmsg=errmsg)
    call expect_status('plan with default-integer sizes, k < 0', stat, &
                       TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, [character(len=32) :: 'argument 5 (k)'])
  end subroutine test_host_dgemm

  subroutine test_host_dgemm_kinds_and_ranks()
    real(real64) :: a(12), b(12), c(12)
    integer(int64) :: m, n, k
    integer :: stat
    character(len=MSG_LEN) :: errmsg

    print '(a)', 'host-array tcgemm_dgemm: int64 sizes and rank-1 storage'
    a = 1.0_real64
    b = 1.0_real64
    c = 3.0_real64
    m = 3
    n = 4
    k = 2
    call tcgemm_dgemm('N', 'N', m, n, k, 1.0_real64, a, 2_int64, b, k, 0.0_real64, c, m, &
                      stat=stat, errmsg=errmsg)
    call expect_status('int64, rank 1: lda < m', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'argument 8 (lda)'])
    call tcgemm_dgemm('N', 'N', 3, 4, 2, 1.0_real64, a, 3, b, 2, 0.0_real64, c, 2, &
                      stat=stat, errmsg=errmsg)
    call expect_status('int32, rank 1: ldc < m', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'argument 13 (ldc)'])
    call expect(all(c == 3.0_real64), 'rank 1: C untouched')
  end subroutine test_host_dgemm_kinds_and_ranks

  !> Reference-BLAS quick returns succeed without any GPU.
  subroutine test_quick_returns()
    real(real64) :: a(4, 4), b(4, 4), c(4, 4)
    integer :: stat
    character(len=MSG_LEN) :: errmsg
    type(tcgemm_device_matrix) :: empty, a_d, b_d

    print '(a)', 'quick returns (no GPU needed)'
    call random_matrix(a)
    call random_matrix(b)
    c = 5.0_real64
    errmsg = 'unchanged'
    call tcgemm_dgemm('N', 'N', 0, 4, 4, 1.0_real64, a, 4, b, 4, 0.0_real64, c, 4, &
                      stat=stat, errmsg=errmsg)
    call expect(stat == 0, 'm = 0: stat = 0')
    call expect(errmsg == 'unchanged', 'm = 0: errmsg left unchanged on success')
    call tcgemm_dgemm('N', 'N', 4, 4, 0, 1.0_real64, a, 4, b, 4, 1.0_real64, c, 4, stat=stat)
    call expect(stat == 0 .and. all(c == 5.0_real64), 'k = 0, beta = 1: stat = 0, C unchanged')
    ! Without stat a successful call must simply return.
    call tcgemm_dgemm('N', 'N', 4, 0, 4, 1.0_real64, a, 4, b, 4, 0.0_real64, c, 4)
    call expect(.true., 'n = 0 without stat returns')

    ! Device matrices: an empty C is a quick return too.
    a_d = fake(0, 4)
    b_d = fake(4, 3)
    empty = fake(0, 3)
    call tcgemm_dgemm('N', 'N', 1.0_real64, a_d, b_d, 0.0_real64, empty, stat=stat)
    call expect(stat == 0, 'device tcgemm_dgemm with m = 0: stat = 0')
  end subroutine test_quick_returns

  !> Tile and padding rules of the kernel families: TCGEMM_ERROR_INVALID_CONFIG, by name.
  subroutine test_family_configs()
    type(tcgemm_device_matrix) :: a, b, c
    integer :: stat
    character(len=MSG_LEN) :: errmsg

    print '(a)', 'kernel families: tile and padding rules'
    a = fake(40, 12)
    b = fake(12, 24)
    c = fake(40, 24)

    call tcgemm_dmma_shared_a(a, b, c, tile_m=32, pad_a=3, stat=stat, errmsg=errmsg)
    call expect_status('shared_a pad_a = 3', stat, TCGEMM_ERROR_INVALID_CONFIG, errmsg, &
                       [character(len=32) :: 'tcgemm_dmma_shared_a', 'pad_a=3', 'multiple of 2'])
    call tcgemm_dmma_shared_a(a, b, c, tile_m=32, pad_a=-2, stat=stat, errmsg=errmsg)
    call expect_status('shared_a pad_a = -2', stat, TCGEMM_ERROR_INVALID_CONFIG, errmsg, &
                       [character(len=32) :: 'pad_a=-2', '>= 0'])
    call tcgemm_dmma_shared_a(a, b, c, tile_m=48, pad_a=2, stat=stat, errmsg=errmsg)
    call expect_status('shared_a tile_m = 48', stat, TCGEMM_ERROR_INVALID_CONFIG, errmsg, &
                       [character(len=32) :: 'tile_m=48', '32, 64, 96, 128'])

    call tcgemm_dmma_shared_ab(a, b, c, tile=64, tile_k=32, pad_a=4, pad_b=5, stat=stat, &
                               errmsg=errmsg)
    call expect_status('shared_ab pad_b = 5', stat, TCGEMM_ERROR_INVALID_CONFIG, errmsg, &
                       [character(len=32) :: 'tcgemm_dmma_shared_ab', 'pad_b=5'])
    call tcgemm_dmma_shared_ab(a, b, c, tile=64, tile_k=30, pad_a=4, pad_b=4, stat=stat, &
                               errmsg=errmsg)
    call expect_status('shared_ab tile_k = 30', stat, TCGEMM_ERROR_INVALID_CONFIG, errmsg, &
                       [character(len=32) :: 'tile_k=30', 'multiple of 4'])
    call tcgemm_dmma_shared_ab(a, b, c, tile=64, tile_k=32, pad_a=66, pad_b=4, stat=stat, &
                               errmsg=errmsg)
    call expect_status('shared_ab pad_a = 66', stat, TCGEMM_ERROR_INVALID_CONFIG, errmsg, &
                       [character(len=32) :: 'pad_a=66', '<= 64'])

    call tcgemm_dmma_block_tile(a, b, c, tile_m=12, tile_n=16, stat=stat, errmsg=errmsg)
    call expect_status('block_tile tile_m = 12', stat, TCGEMM_ERROR_INVALID_CONFIG, errmsg, &
                       [character(len=32) :: 'tcgemm_dmma_block_tile', 'tile_m=12'])
    call tcgemm_dmma_block_tile(a, b, c, tile_m=128, tile_n=128, stat=stat, errmsg=errmsg)
    call expect_status('block_tile 128 x 128', stat, TCGEMM_ERROR_INVALID_CONFIG, errmsg, &
                       [character(len=32) :: '32 warps'])
  end subroutine test_family_configs

  !> Leading dimensions and niter reach the C validation through the device-matrix wrappers.
  subroutine test_device_dgemm_arguments()
    type(tcgemm_device_matrix) :: a, b, c, a8, b4
    type(tcgemm_config) :: config
    integer :: stat
    character(len=MSG_LEN) :: errmsg

    print '(a)', 'device matrices: leading dimensions, trans flags, niter'
    a = fake(10, 5, ld=9)            ! ld < rows: only a hand-made handle can be like this
    b = fake(5, 6)
    c = fake(10, 6)
    call tcgemm_dgemm('N', 'N', 1.0_real64, a, b, 0.0_real64, c, stat=stat, errmsg=errmsg)
    call expect_status('device dgemm lda < m', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'tcgemm_dgemm', 'argument 8 (lda)'])

    a = fake(10, 5)
    call tcgemm_dgemm('Q', 'N', 1.0_real64, a, b, 0.0_real64, c, stat=stat, errmsg=errmsg)
    call expect_status('device dgemm transa = Q', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'argument 1 (transa)'])

    call tcgemm_default_config(TCGEMM_FAMILY_SHARED_AB, config)
    c = fake(10, 6, ld=7)
    call tcgemm_dgemm_config(config, 'N', 'N', 1.0_real64, a, b, 0.0_real64, c, stat=stat, &
                             errmsg=errmsg)
    call expect_status('dgemm_config ldc < m', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'tcgemm_dgemm_config', '(ldc)'])
    c = fake(10, 6)
    config%pad_b = 1
    call tcgemm_dgemm_config(config, 'N', 'N', 1.0_real64, a, b, 0.0_real64, c, stat=stat, &
                             errmsg=errmsg)
    call expect_status('dgemm_config pad_b = 1', stat, TCGEMM_ERROR_INVALID_CONFIG, errmsg, &
                       [character(len=32) :: 'pad_b=1'])

    a8 = fake(8, 4)
    b4 = fake(4, 8)
    c = fake(24, 16)
    call tcgemm_dmma_peak(a8, b4, c, niter=0, stat=stat, errmsg=errmsg)
    call expect_status('peak niter = 0', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'tcgemm_dmma_peak', 'niter=0'])
    c = fake(24, 16, ld=20)
    call tcgemm_dmma_peak(a8, b4, c, niter=1, stat=stat, errmsg=errmsg)
    call expect_status('peak ldc < m', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'ldc=20'])

    a = fake(37, 13, ld=30)
    b = fake(13, 29)
    c = fake(37, 29)
    call tcgemm_dmma_warp_per_block(a, b, c, stat=stat, errmsg=errmsg)
    call expect_status('warp_per_block lda < m', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'tcgemm_dmma_warp_per_block', 'lda=30'])
    a = fake(8, 12)
    b = fake(12, 8, ld=11)
    c = fake(8, 8)
    call tcgemm_dmma_row(a, b, c, stat=stat, errmsg=errmsg)
    call expect_status('row ldb < k', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'tcgemm_dmma_row', 'ldb=11'])
  end subroutine test_device_dgemm_arguments

  !> Shapes of device matrices are checked by the module (the C API takes m, n, k instead).
  subroutine test_shape_checks()
    type(tcgemm_device_matrix) :: a, b, c
    integer :: stat
    character(len=MSG_LEN) :: errmsg

    print '(a)', 'device matrices: shape conformance'
    a = fake(10, 5)
    b = fake(4, 6)
    c = fake(10, 6)
    call tcgemm_dgemm('N', 'N', 1.0_real64, a, b, 0.0_real64, c, stat=stat, errmsg=errmsg)
    call expect_status('dgemm op(A) 10x5, op(B) 4x6', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                       errmsg, [character(len=32) :: 'op(A) is 10x5', 'op(B) is 4x6'])
    a = fake(8, 3)
    b = fake(4, 8)
    c = fake(8, 8)
    call tcgemm_dmma_single(a, b, c, stat=stat, errmsg=errmsg)
    call expect_status('single A 8x3', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'tcgemm_dmma_single', 'A is 8x3, must be 8x4'])
    a = fake(8, 4)
    c = fake(8, 9)
    call tcgemm_dmma_single(a, b, c, stat=stat, errmsg=errmsg)
    call expect_status('single C 8x9', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'C is 8x9, must be 8x8'])
    a = fake(8, 12)
    b = fake(11, 8)
    call tcgemm_dmma_row(a, b, c, stat=stat, errmsg=errmsg)
    call expect_status('row B 11x8 for K = 12', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'B is 11x8, must be 12x8'])
    a = fake(8, 5)
    b = fake(4, 8)
    c = fake(16, 16)
    call tcgemm_dmma_peak(a, b, c, niter=1, stat=stat, errmsg=errmsg)
    call expect_status('peak A 8x5', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'A is 8x5, must be 8x4'])
    a = fake(40, 12)
    b = fake(12, 24)
    c = fake(40, 25)
    call tcgemm_dmma_shared_ab(a, b, c, 64, 32, 4, 4, stat=stat, errmsg=errmsg)
    call expect_status('shared_ab C 40x25', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'C is 40x25'])
  end subroutine test_shape_checks

  subroutine test_allocation_and_copies()
    type(tcgemm_device_matrix) :: d, empty
    real(real64) :: host(5, 3), wrong(4, 3)
    integer :: stat
    character(len=MSG_LEN) :: errmsg

    print '(a)', 'device matrices: allocation and copy arguments'
    call tcgemm_device_allocate(d, 5, 3, ld=4, stat=stat, errmsg=errmsg)
    call expect_status('allocate ld < rows', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'tcgemm_device_allocate', 'ld = 4', &
                                             'max(1, rows) = 5'])
    call expect(.not. tcgemm_device_allocated(d), 'allocate ld < rows: nothing allocated')
    call tcgemm_device_allocate(d, -1_int64, 3_int64, stat=stat, errmsg=errmsg)
    call expect_status('allocate rows < 0 (int64)', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'rows = -1'])
    call tcgemm_device_allocate(d, stat=stat, errmsg=errmsg)
    call expect_status('allocate without shape, source or mold', stat, &
                       TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'exactly one of source= and mold='])
    call tcgemm_device_allocate(d, source=host, mold=host, stat=stat, errmsg=errmsg)
    call expect_status('allocate with source and mold', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                       errmsg, [character(len=32) :: 'exactly one of source= and mold='])

    d = fake(5, 3)
    call tcgemm_device_allocate(d, mold=host, stat=stat, errmsg=errmsg)
    call expect_status('allocate an allocated matrix', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                       errmsg, [character(len=32) :: 'already allocated'])
    call expect(d%rows == 5 .and. d%cols == 3, 'allocate an allocated matrix: handle unchanged')

    ! Zero-size matrices need no memory and no GPU.
    call tcgemm_device_allocate(empty, 0, 7, stat=stat, errmsg=errmsg)
    call expect(stat == 0 .and. empty%rows == 0 .and. empty%cols == 7 .and. empty%ld == 1, &
                'allocate 0 x 7: stat = 0, ld = 1')
    call tcgemm_device_deallocate(empty, stat=stat)
    call expect(stat == 0, 'deallocate a zero-size matrix: stat = 0')
    call tcgemm_device_deallocate(empty, stat=stat)
    call expect(stat == 0, 'deallocate twice: a no-op')

    host = 1.0_real64
    wrong = 2.0_real64
    call tcgemm_copy(wrong, d, stat=stat, errmsg=errmsg)
    call expect_status('copy 4x3 host to 5x3 device', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                       errmsg, [character(len=32) :: 'host to device', 'host array is 4x3'])
    call tcgemm_copy(d, wrong, stat=stat, errmsg=errmsg)
    call expect_status('copy 5x3 device to 4x3 host', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                       errmsg, [character(len=32) :: 'device to host'])
    call expect(all(wrong == 2.0_real64), 'rejected download leaves the host array alone')
  end subroutine test_allocation_and_copies

  subroutine test_configurations()
    type(tcgemm_config) :: config
    integer :: stat, threads
    integer(int64) :: bytes
    character(len=MSG_LEN) :: errmsg

    print '(a)', 'configurations (host only)'
    call tcgemm_default_config(42, config, stat=stat, errmsg=errmsg)
    call expect_status('default_config family 42', stat, TCGEMM_ERROR_INVALID_CONFIG, errmsg, &
                       [character(len=32) :: 'tcgemm_default_config', 'family=42'])

    call tcgemm_default_config(TCGEMM_FAMILY_SHARED_AB, config, stat=stat)
    call expect(stat == 0 .and. config%family == TCGEMM_FAMILY_SHARED_AB .and. &
                config%tile_m > 0 .and. config%tile_k > 0 .and. config%stages > 0, &
                'default_config shared_ab: complete configuration')
    call tcgemm_config_validate(config, stat=stat)
    call expect(stat == 0, 'config_validate accepts the default')
    call tcgemm_config_threads_per_block(config, threads, stat=stat)
    call expect(stat == 0 .and. threads == config%tile_m / 8 * 32, &
                'threads_per_block = one warp per 8 rows of the C tile')
    call tcgemm_config_shared_memory_bytes(config, bytes, stat=stat)
    call expect(stat == 0 .and. bytes >= 8_int64 * ((config%tile_m + config%pad_a) * &
                config%tile_k + (config%tile_k + config%pad_b) * config%tile_n), &
                'shared_memory_bytes covers the padded A and B tiles')

    config%k_splits = 4
    call tcgemm_config_validate(config, stat=stat, errmsg=errmsg)
    call expect_status('config k_splits = 4 on shared_ab', stat, TCGEMM_ERROR_INVALID_CONFIG, errmsg, &
                       [character(len=32) :: 'tcgemm_config_validate', 'k_splits=4', 'has no split-K'])
    config = tcgemm_config(family=TCGEMM_FAMILY_SHARED_A, pad_a=7)
    call tcgemm_config_shared_memory_bytes(config, bytes, stat=stat, errmsg=errmsg)
    call expect_status('shared_memory_bytes pad_a = 7', stat, TCGEMM_ERROR_INVALID_CONFIG, &
                       errmsg, [character(len=32) :: 'pad_a=7'])
    call tcgemm_config_threads_per_block(config, threads, stat=stat, errmsg=errmsg)
    call expect_status('threads_per_block pad_a = 7', stat, TCGEMM_ERROR_INVALID_CONFIG, &
                       errmsg, [character(len=32) :: 'pad_a=7'])
    call tcgemm_config_check_device(config, stat=stat, errmsg=errmsg)
    call expect_status('check_device validates before looking for a device', stat, &
                       TCGEMM_ERROR_INVALID_CONFIG, errmsg, [character(len=32) :: 'pad_a=7'])
  end subroutine test_configurations

  subroutine test_strings()
    character(len=16) :: expected_version

    print '(a)', 'strings'
    call expect(tcgemm_status_string(TCGEMM_ERROR_INVALID_CONFIG) == &
                'TCGEMM_ERROR_INVALID_CONFIG', 'status_string(TCGEMM_ERROR_INVALID_CONFIG)')
    call expect(tcgemm_status_string(TCGEMM_SUCCESS) == 'TCGEMM_SUCCESS', &
                'status_string(TCGEMM_SUCCESS)')
    write (expected_version, '(i0,".",i0,".",i0)') TCGEMM_VERSION_MAJOR, TCGEMM_VERSION_MINOR, &
                                                   TCGEMM_VERSION_PATCH
    call expect(tcgemm_version_string() == trim(expected_version), &
                'version_string matches the module''s TCGEMM_VERSION_* (' // &
                tcgemm_version_string() // ')')
    call tcgemm_release_workspace()
    call expect(tcgemm_last_error() == '', 'last_error is empty after a successful call')
  end subroutine test_strings

  !> tcgemm_set_host_devices / tcgemm_get_host_devices: an empty list always succeeds (back to
  !> TCGEMM_DEVICES and the defaults); a negative ordinal is argument 1's error before any CUDA
  !> call; without a GPU a real ordinal cannot be checked (TCGEMM_ERROR_NO_DEVICE).
  subroutine test_host_devices()
    integer :: stat, count, devices(4)
    integer(int64) :: stat64
    character(len=MSG_LEN) :: errmsg
    integer :: no_devices(0)

    print '(a)', 'host device list'
    call tcgemm_set_host_devices(no_devices, stat=stat)
    call expect(stat == TCGEMM_SUCCESS, 'set_host_devices([]): stat 0')
    call tcgemm_set_host_devices([0, -2], stat=stat, errmsg=errmsg)
    call expect_status('negative ordinal', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'tcgemm_set_host_devices', 'devices[1] = -2'])
    call expect(tcgemm_last_error_argument() == 1, 'negative ordinal blames argument 1')
    call tcgemm_set_host_devices([0, -2], stat64)
    call expect(stat64 == TCGEMM_ERROR_INVALID_ARGUMENT, 'int64 stat')
    call tcgemm_get_host_devices(devices, count, stat=stat, errmsg=errmsg)
    if (stat == TCGEMM_SUCCESS) then
      call expect(count >= 1, 'get_host_devices: at least one device')
    else
      call expect(stat == TCGEMM_ERROR_NO_DEVICE .and. count == 0, &
                  'get_host_devices without a GPU: TCGEMM_ERROR_NO_DEVICE, count 0')
    end if
  end subroutine test_host_devices

  subroutine test_errmsg_handling()
    real(real64) :: a(4, 4), b(4, 4), c(4, 4)
    character(len=12) :: short_msg
    integer :: stat

    print '(a)', 'stat/errmsg conventions'
    a = 1.0_real64
    b = 1.0_real64
    c = 1.0_real64
    short_msg = ''
    call tcgemm_dgemm('N', 'N', 4, 4, 4, 1.0_real64, a, 3, b, 4, 0.0_real64, c, 4, &
                      stat=stat, errmsg=short_msg)
    call expect(stat == TCGEMM_ERROR_INVALID_ARGUMENT .and. short_msg == 'argument 8 (', &
                'a short errmsg receives the reason first: ' // short_msg)
    call tcgemm_dgemm('N', 'N', 4, 4, 4, 1.0_real64, a, 3, b, 4, 0.0_real64, c, 4, stat=stat)
    call expect(stat == TCGEMM_ERROR_INVALID_ARGUMENT, 'stat without errmsg')
    call expect(contains_text(tcgemm_last_error(), 'argument 8 (lda)'), &
                'last_error still holds the failed call''s message')
  end subroutine test_errmsg_handling

  !> tcgemm_last_error_argument: reference DGEMM's numbering (XERBLA's INFO) for the BLAS-form call,
  !> sizes beyond what 64-bit offsets address rejected by number, 0 for the module's own checks.
  subroutine test_error_argument()
    real(real64) :: a(12), b(12), c(12)
    type(tcgemm_device_matrix) :: ad, bd, cd
    integer(int64), parameter :: huge_size = 2_int64**33
    integer :: stat
    character(len=MSG_LEN) :: errmsg

    print '(a)', 'tcgemm_last_error_argument'
    a = 1.0_real64
    b = 1.0_real64
    c = 3.0_real64
    call tcgemm_dgemm('N', 'N', 3, 4, 2, 1.0_real64, a, 2, b, 2, 0.0_real64, c, 3, stat=stat, errmsg=errmsg)
    call expect(stat == TCGEMM_ERROR_INVALID_ARGUMENT .and. tcgemm_last_error_argument() == 8, &
                'lda < m: argument 8')
    call tcgemm_dgemm('N', 'T', 3, 4, 2, 1.0_real64, a, 3, b, 3, 0.0_real64, c, 3, stat=stat, errmsg=errmsg)
    call expect(stat == TCGEMM_ERROR_INVALID_ARGUMENT .and. tcgemm_last_error_argument() == 10, &
                'ldb < n (transb = T): argument 10')
    call tcgemm_dgemm('X', 'N', 3, 4, 2, 1.0_real64, a, 3, b, 2, 0.0_real64, c, 3, stat=stat, errmsg=errmsg)
    call expect(stat == TCGEMM_ERROR_INVALID_ARGUMENT .and. tcgemm_last_error_argument() == 1, &
                'transa: argument 1')
    ! m = n = k = 2**33: A alone would be 2**66 elements; rejected by number, C untouched.
    call tcgemm_dgemm('N', 'N', huge_size, huge_size, huge_size, 1.0_real64, a, huge_size, b, huge_size, &
                      0.0_real64, c, huge_size, stat=stat, errmsg=errmsg)
    call expect_status('2**33 sizes', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'argument 8 (lda)', '2^52 bytes'])
    call expect(tcgemm_last_error_argument() == 8, '2**33 sizes: argument 8')
    call expect(all(c == 3.0_real64), 'C untouched')
    ! The module's own shape check blames no numbered argument (and does not report a stale one).
    ad = fake(10, 5)
    bd = fake(4, 6)
    cd = fake(10, 6)
    call tcgemm_dgemm('N', 'N', 1.0_real64, ad, bd, 0.0_real64, cd, stat=stat, errmsg=errmsg)
    call expect(stat == TCGEMM_ERROR_INVALID_ARGUMENT .and. tcgemm_last_error_argument() == 0, &
                'module shape check: argument 0')
  end subroutine test_error_argument
end program test_errors_cpu
