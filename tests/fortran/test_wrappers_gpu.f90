!> Every wrapper of module tcgemm on the GPU against a host reference (intrinsic matmul): fresh
!> random operands, non-square sizes that are not multiples of the tiles, leading dimensions
!> larger than the rows (the padding rows hold a sentinel no call may overwrite), C poisoned
!> with NaN when beta = 0. Exits with 77 ("skipped") when there is no CUDA device.
!>
!> Usage: test_wrappers_gpu <case>   (cases: see the select case below)
program test_wrappers_gpu
  use, intrinsic :: iso_fortran_env, only: int64, real64, error_unit
  use, intrinsic :: iso_c_binding, only: c_ptr
  use tcgemm
  use test_support
  implicit none

  integer, parameter :: MSG_LEN = 512

  ! Kernel families run by run_product (one call per family wrapper).
  enum, bind(c)
    enumerator :: SINGLE = 1, ROW, WARP_PER_BLOCK, BLOCK_TILE, SHARED_A, SHARED_AB
  end enum

  type(tcgemm_device_info) :: info
  character(len=32) :: which
  ! Tile parameters of the family under test (host-associated by the launch procedures).
  integer :: tile_m, tile_n, tile_k, pad_a, pad_b, niter

  call get_command_argument(1, which)
  call skip_without_device(info)

  select case (which)
  case ('device_info')
    call test_device_info()
  case ('copy')
    call test_copy()
  case ('dgemm_host')
    call test_dgemm_host()
  case ('dgemm_device')
    call test_dgemm_device()
  case ('dgemm_stream')
    call test_dgemm_stream()
  case ('dgemm_config')
    call test_dgemm_config()
  case ('single')
    call run_product('single 8x8x4', 8, 8, 4, [3, 2, 2], SINGLE)
  case ('row')
    call run_product('row K=13', 8, 8, 13, [3, 1, 2], ROW)
    call run_product('row K=16', 8, 8, 16, [0, 0, 0], ROW)
    call run_product('row K=1', 8, 8, 1, [2, 3, 1], ROW)
  case ('warp_per_block')
    call run_product('warp_per_block 37x29x13', 37, 29, 13, [3, 2, 5], WARP_PER_BLOCK)
    call run_product('warp_per_block 16x16x16', 16, 16, 16, [0, 0, 0], WARP_PER_BLOCK)
    call run_product('warp_per_block 1x1x1', 1, 1, 1, [1, 1, 1], WARP_PER_BLOCK)
  case ('block_tile')
    call test_block_tile()
  case ('peak')
    call test_peak()
  case ('shared_a')
    call test_shared_a()
  case ('shared_ab')
    call test_shared_ab()
  case default
    write (error_unit, '(a)') 'unknown case: ' // trim(which)
    error stop 2
  end select
  call finish_tests()

contains

  ! ---- device matrices with sentinel padding -------------------------------------------------

  !> Allocate d with leading dimension rows + extra and upload x; the padding rows get
  !> PAD_SENTINEL (uploaded verbatim as an ld x cols array).
  subroutine upload(x, extra, d)
    real(real64), intent(in) :: x(:, :)
    integer, intent(in) :: extra
    type(tcgemm_device_matrix), intent(inout) :: d
    real(real64), allocatable :: full(:, :)
    integer :: rows

    rows = size(x, 1)
    call tcgemm_device_allocate(d, rows, size(x, 2), ld=max(1, rows + extra))
    allocate(full(d%ld, d%cols))
    full = PAD_SENTINEL
    full(1:rows, :) = x
    call tcgemm_copy(full, d)
  end subroutine upload

  !> Download d into x and report whether its padding rows still hold PAD_SENTINEL.
  logical function download(d, x) result(padding_intact)
    type(tcgemm_device_matrix), intent(in) :: d
    real(real64), intent(out) :: x(:, :)
    real(real64), allocatable :: full(:, :)

    allocate(full(d%ld, d%cols))
    call tcgemm_copy(d, full)
    x = full(1:d%rows, :)
    padding_intact = all(full(d%rows + 1:, :) == PAD_SENTINEL)
  end function download

  !> C = A B (m x n x k) through `family`, with leading-dimension extras (A, B, C) = extra.
  subroutine run_product(what, m, n, k, extra, family)
    character(len=*), intent(in) :: what
    integer, intent(in) :: m, n, k, extra(3), family
    real(real64) :: a(m, k), b(k, n), c(m, n), c0(m, n), a_back(m, k), b_back(k, n)
    type(tcgemm_device_matrix) :: a_d, b_d, c_d
    integer :: stat
    character(len=MSG_LEN) :: errmsg
    logical :: pad_a_ok, pad_b_ok, pad_c_ok

    call random_matrix(a)
    call random_matrix(b)
    c0 = nan()
    call upload(a, extra(1), a_d)
    call upload(b, extra(2), b_d)
    call upload(c0, extra(3), c_d)

    errmsg = ''
    call launch(family, a_d, b_d, c_d, stat, errmsg)
    call expect(stat == 0, what // ': stat = 0 ' // trim(errmsg))
    if (stat == 0) then
      pad_c_ok = download(c_d, c)
      pad_a_ok = download(a_d, a_back)
      pad_b_ok = download(b_d, b_back)
      call expect(gemm_close('N', 'N', 1.0_real64, a, b, 0.0_real64, c0, c), &
                  what // ': C = A B')
      call expect(pad_c_ok, what // ': padding rows of C untouched')
      call expect(pad_a_ok .and. pad_b_ok .and. all(a_back == a) .and. all(b_back == b), &
                  what // ': A and B untouched')
    end if
    call tcgemm_device_deallocate(a_d)
    call tcgemm_device_deallocate(b_d)
    call tcgemm_device_deallocate(c_d)
  end subroutine run_product

  !> C = A B through the wrapper of `family`, tile parameters from the host program. (A select
  !> case rather than a procedure argument: passing internal procedures needs an executable stack.)
  subroutine launch(family, a, b, c, stat, errmsg)
    integer, intent(in) :: family
    type(tcgemm_device_matrix), intent(in) :: a, b
    type(tcgemm_device_matrix), intent(inout) :: c
    integer, intent(out) :: stat
    character(len=*), intent(inout) :: errmsg

    select case (family)
    case (SINGLE)
      call tcgemm_dmma_single(a, b, c, stat=stat, errmsg=errmsg)
    case (ROW)
      call tcgemm_dmma_row(a, b, c, stat=stat, errmsg=errmsg)
    case (WARP_PER_BLOCK)
      call tcgemm_dmma_warp_per_block(a, b, c, stat=stat, errmsg=errmsg)
    case (BLOCK_TILE)
      call tcgemm_dmma_block_tile(a, b, c, tile_m, tile_n, stat=stat, errmsg=errmsg)
    case (SHARED_A)
      call tcgemm_dmma_shared_a(a, b, c, tile_m, pad_a, stat=stat, errmsg=errmsg)
    case (SHARED_AB)
      call tcgemm_dmma_shared_ab(a, b, c, tile_m, tile_k, pad_a, pad_b, stat=stat, errmsg=errmsg)
    case default
      error stop 'launch: unknown family'
    end select
  end subroutine launch

  ! ---- cases ------------------------------------------------------------------------------------

  subroutine test_device_info()
    type(tcgemm_device_info) :: again
    integer :: stat

    call expect(len(tcgemm_device_name(info)) > 0, 'device name: ' // tcgemm_device_name(info))
    call expect(info%sm_count > 0, 'sm_count > 0')
    call expect(info%shared_memory_per_block_optin >= 48 * 1024, 'shared memory opt-in >= 48 KiB')
    call expect(info%global_memory > 0, 'global memory > 0')
    call tcgemm_device_info_get(again, device=info%device, stat=stat)
    call expect(stat == 0 .and. again%cc_major == info%cc_major .and. &
                tcgemm_device_name(again) == tcgemm_device_name(info), &
                'device_info_get(device=n) matches the current device')
  end subroutine test_device_info

  subroutine test_copy()
    real(real64) :: x(13, 7), y(13, 7), padded(16, 7), mold_source(5, 9)
    type(tcgemm_device_matrix) :: d, e, empty
    integer :: stat

    call random_matrix(x)
    call tcgemm_device_allocate(d, source=x, ld=16)
    call expect(d%rows == 13 .and. d%cols == 7 .and. d%ld == 16, 'source= keeps the shape, ld = 16')
    y = 0.0_real64
    call tcgemm_copy(d, y)
    call expect(all(y == x), 'round trip through a padded device matrix (packed)')
    call tcgemm_copy(d, padded)
    call expect(all(padded(1:13, :) == x) .and. all(padded(14:16, :) == 0.0_real64), &
                'verbatim download: data, then zeroed padding rows')
    padded(14:16, :) = PAD_SENTINEL
    padded(1:13, :) = -x
    call tcgemm_copy(padded, d)
    call tcgemm_copy(d, y)
    call expect(all(y == -x), 'verbatim upload')

    call tcgemm_device_allocate(e, mold=mold_source, stat=stat)
    call expect(stat == 0 .and. e%rows == 5 .and. e%cols == 9 .and. e%ld == 5, 'mold= shape')
    call tcgemm_device_deallocate(e)
    call tcgemm_device_allocate(e, 300_int64, 2_int64, ld=301_int64)
    call expect(tcgemm_device_allocated(e) .and. e%ld == 301, 'int64 rows/cols/ld')
    call tcgemm_device_deallocate(e)
    call expect(.not. tcgemm_device_allocated(e) .and. e%rows == 0, 'deallocate resets the handle')

    call tcgemm_device_allocate(empty, 0, 4)
    call tcgemm_copy(empty, y(1:0, 1:4))
    call expect(.not. tcgemm_device_allocated(empty), &
                'zero-size matrix: no memory, copies are no-ops')
    call tcgemm_device_deallocate(d)
  end subroutine test_copy

  !> Host arrays, BLAS argument list: every trans combination, alpha/beta cases, leading
  !> dimensions > rows (rows beyond m of C must stay as they were), int64 sizes, rank-1 storage,
  !> non-default lower bounds.
  subroutine test_dgemm_host()
    character(len=1), parameter :: flags(2) = ['N', 'T']
    real(real64), parameter :: alphas(3) = [1.0_real64, -1.5_real64, 0.0_real64]
    real(real64), parameter :: betas(3) = [0.0_real64, 0.5_real64, 2.0_real64]
    integer, parameter :: m = 37, n = 29, k = 23
    integer :: ia, ib, case_no
    character(len=64) :: what

    case_no = 0
    do ia = 1, 2
      do ib = 1, 2
        case_no = case_no + 1
        write (what, '(a,a,a,a)') 'host ', flags(ia), flags(ib), ' alpha=1 beta=0'
        call host_case(trim(what), flags(ia), flags(ib), m, n, k, 1.0_real64, 0.0_real64)
        write (what, '(a,a,a,a)') 'host ', flags(ia), flags(ib), ' alpha=-1.5 beta=0.5'
        call host_case(trim(what), flags(ia), flags(ib), m, n, k, alphas(2), betas(2))
      end do
    end do
    call host_case('host NN alpha=0 beta=2 (C scaled, A/B unread)', 'N', 'N', m, n, k, &
                   alphas(3), betas(3))
    call host_case('host NN k=0 beta=0.5', 'N', 'N', m, n, 0, 1.0_real64, 0.5_real64)
    call host_case('host TN 128x96x200 (workspace grows)', 'T', 'N', 128, 96, 200, 1.0_real64, &
                   0.0_real64)
    call host_case('host NT 5x3x2 (smaller again: buffers reused)', 'N', 'T', 5, 3, 2, &
                   1.0_real64, 1.0_real64)
    call tcgemm_release_workspace()
    call host_case('host NN after release_workspace', 'N', 'N', 17, 9, 31, 1.0_real64, &
                   0.0_real64)
    call host_variants()
  end subroutine test_dgemm_host

  !> One host-array dgemm with lda, ldb, ldc larger than needed.
  subroutine host_case(what, transa, transb, m, n, k, alpha, beta)
    character(len=*), intent(in) :: what
    character(len=1), intent(in) :: transa, transb
    integer, intent(in) :: m, n, k
    real(real64), intent(in) :: alpha, beta
    integer :: a_rows, a_cols, b_rows, b_cols, lda, ldb, ldc, stat
    real(real64), allocatable :: a(:, :), b(:, :), c(:, :), c0(:, :), a_in(:, :), b_in(:, :)
    character(len=MSG_LEN) :: errmsg

    a_rows = merge(m, k, transa == 'N')
    a_cols = merge(k, m, transa == 'N')
    b_rows = merge(k, n, transb == 'N')
    b_cols = merge(n, k, transb == 'N')
    lda = a_rows + 3
    ldb = b_rows + 1
    ldc = m + 4
    allocate(a(lda, a_cols), b(ldb, b_cols), c(ldc, n), c0(m, n))
    call random_matrix(a)
    call random_matrix(b)
    a(a_rows + 1:, :) = PAD_SENTINEL
    b(b_rows + 1:, :) = PAD_SENTINEL
    call random_matrix(c0)
    if (beta == 0.0_real64) c0 = nan()     ! beta = 0: C must not be read
    c = PAD_SENTINEL
    c(1:m, :) = c0
    a_in = a
    b_in = b

    errmsg = ''
    call tcgemm_dgemm(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, &
                      stat=stat, errmsg=errmsg)
    call expect(stat == 0, what // ': stat = 0 ' // trim(errmsg))
    call expect(gemm_close(transa, transb, alpha, a(1:a_rows, :), b(1:b_rows, :), beta, c0, &
                           c(1:m, :)), what // ': C = alpha op(A) op(B) + beta C')
    call expect(all(c(m + 1:, :) == PAD_SENTINEL), what // ': rows m+1..ldc of C untouched')
    call expect(all(a == a_in) .and. all(b == b_in), what // ': A and B unchanged')
  end subroutine host_case

  !> The other specifics of the generic: int64 sizes, rank-1 storage, arrays with other bounds.
  subroutine host_variants()
    integer, parameter :: m = 19, n = 11, k = 7, lda = 21, ldb = 9, ldc = 20
    real(real64) :: a(lda, k), b(ldb, n), c(ldc, n), c0(m, n)
    real(real64) :: a1(lda * k), b1(ldb * n), c1(ldc * n)
    real(real64) :: a_off(0:lda - 1, -3:k - 4), b_off(-1:ldb - 2, 5:n + 4), c_off(ldc, n)
    integer :: stat

    call random_matrix(a)
    call random_matrix(b)
    c0 = nan()

    c = PAD_SENTINEL
    c(1:m, :) = c0
    call tcgemm_dgemm('N', 'N', int(m, int64), int(n, int64), int(k, int64), 1.0_real64, a, &
                      int(lda, int64), b, int(ldb, int64), 0.0_real64, c, int(ldc, int64), &
                      stat=stat)
    call expect(stat == 0 .and. gemm_close('N', 'N', 1.0_real64, a(1:m, :), b(1:k, :), &
                0.0_real64, c0, c(1:m, :)) .and. all(c(m + 1:, :) == PAD_SENTINEL), &
                'host int64 sizes')

    a1 = reshape(a, [lda * k])
    b1 = reshape(b, [ldb * n])
    c1 = PAD_SENTINEL
    call tcgemm_dgemm('N', 'N', m, n, k, 1.0_real64, a1, lda, b1, ldb, 0.0_real64, c1, ldc, &
                      stat=stat)
    c = reshape(c1, [ldc, n])
    call expect(stat == 0 .and. gemm_close('N', 'N', 1.0_real64, a(1:m, :), b(1:k, :), &
                0.0_real64, c0, c(1:m, :)) .and. all(c(m + 1:, :) == PAD_SENTINEL), &
                'host rank-1 storage')

    a_off = a
    b_off = b
    c_off = PAD_SENTINEL
    call tcgemm_dgemm('N', 'N', m, n, k, 1.0_real64, a_off, lda, b_off, ldb, 0.0_real64, &
                      c_off, ldc, stat=stat)
    call expect(stat == 0 .and. gemm_close('N', 'N', 1.0_real64, a(1:m, :), b(1:k, :), &
                0.0_real64, c0, c_off(1:m, :)) .and. all(c_off(m + 1:, :) == PAD_SENTINEL), &
                'host arrays with lower bounds other than 1')
  end subroutine host_variants

  !> Device matrices: every trans combination with alpha/beta and padded leading dimensions.
  subroutine test_dgemm_device()
    character(len=1), parameter :: flags(2) = ['N', 'T']
    integer :: ia, ib

    do ia = 1, 2
      do ib = 1, 2
        call device_case(flags(ia), flags(ib), 45, 31, 27, 1.0_real64, 0.0_real64)
        call device_case(flags(ia), flags(ib), 45, 31, 27, 0.75_real64, -1.25_real64)
      end do
    end do
    call device_case('N', 'N', 130, 70, 257, 1.0_real64, 0.0_real64)
    call device_case('T', 'T', 1, 1, 1, 2.0_real64, 1.0_real64)
  end subroutine test_dgemm_device

  subroutine device_case(transa, transb, m, n, k, alpha, beta, stream)
    character(len=1), intent(in) :: transa, transb
    integer, intent(in) :: m, n, k
    real(real64), intent(in) :: alpha, beta
    type(c_ptr), intent(in), optional :: stream
    real(real64), allocatable :: a(:, :), b(:, :), c(:, :), c0(:, :)
    type(tcgemm_device_matrix) :: a_d, b_d, c_d
    integer :: stat
    character(len=MSG_LEN) :: errmsg
    character(len=96) :: what

    write (what, '(a,a,a,3(i0,a),2(a,f0.2))') 'device ', transa, transb, m, 'x', n, 'x', k, &
                                              '', ' alpha=', alpha, ' beta=', beta
    allocate(a(merge(m, k, transa == 'N'), merge(k, m, transa == 'N')))
    allocate(b(merge(k, n, transb == 'N'), merge(n, k, transb == 'N')))
    allocate(c(m, n), c0(m, n))
    call random_matrix(a)
    call random_matrix(b)
    call random_matrix(c0)
    if (beta == 0.0_real64) c0 = nan()
    call upload(a, 3, a_d)
    call upload(b, 1, b_d)
    call upload(c0, 2, c_d)

    errmsg = ''
    call tcgemm_dgemm(transa, transb, alpha, a_d, b_d, beta, c_d, stream=stream, stat=stat, &
                      errmsg=errmsg)
    if (present(stream)) call tcgemm_synchronize(stream)
    call expect(stat == 0, trim(what) // ': stat = 0 ' // trim(errmsg))
    call expect(download(c_d, c), trim(what) // ': padding rows of C untouched')
    call expect(gemm_close(transa, transb, alpha, a, b, beta, c0, c), trim(what) // ': C')
    call tcgemm_device_deallocate(a_d)
    call tcgemm_device_deallocate(b_d)
    call tcgemm_device_deallocate(c_d)
  end subroutine device_case

  !> A non-default stream: the launch is queued there and tcgemm_synchronize(stream) waits.
  subroutine test_dgemm_stream()
    type(c_ptr) :: stream
    stream = stream_create()
    call device_case('N', 'T', 70, 50, 33, 1.0_real64, 0.5_real64, stream)
    call device_case('T', 'N', 8, 200, 64, -1.0_real64, 0.0_real64, stream)
    call stream_destroy(stream)
  end subroutine test_dgemm_stream

  !> tcgemm_dgemm_config with each BLAS family's default and with hand-set tiles; the Hopper
  !> family must be refused (TCGEMM_ERROR_ARCHITECTURE) on any other architecture.
  subroutine test_dgemm_config()
    type(tcgemm_config) :: config, selected
    type(tcgemm_plan) :: plan
    integer :: stat
    character(len=MSG_LEN) :: errmsg
    character(len=8) :: sm90_code

    call tcgemm_dgemm_select_config(selected, stat=stat)
    call expect(stat == 0 .and. selected%family /= TCGEMM_FAMILY_AUTO, &
                'dgemm_select_config resolves AUTO')

    call tcgemm_default_config(TCGEMM_FAMILY_SHARED_A, config)
    call config_case('config shared_a default', config, 'T', 'N')
    call tcgemm_default_config(TCGEMM_FAMILY_SHARED_AB, config)
    call config_case('config shared_ab default', config, 'N', 'T')
    config = tcgemm_config(family=TCGEMM_FAMILY_SHARED_AB, tile_m=32, tile_n=32, tile_k=16, &
                           pad_a=2, pad_b=6, stages=1)
    call config_case('config shared_ab 32x32x16 pads 2/6 one stage', config, 'N', 'N')
    call config_case('config auto', tcgemm_config(), 'T', 'T')

    ! The plan of config_case's shape: its configuration is valid and runs that product.
    call tcgemm_dgemm_plan('N', 'T', 100_int64, 70_int64, 37_int64, plan, stat=stat, errmsg=errmsg)
    call expect(stat == 0 .and. plan%k_slices >= 1 .and. len(tcgemm_plan_summary(plan)) > 20, &
                'tcgemm_dgemm_plan: ' // tcgemm_plan_summary(plan))
    call config_case('config from tcgemm_dgemm_plan', plan%config, 'N', 'T')

    call tcgemm_default_config(TCGEMM_FAMILY_SM90_MMA, config)
    errmsg = ''
    call tcgemm_config_check_device(config, stat=stat, errmsg=errmsg)
    call get_environment_variable('TCGEMM_TEST_SM90_CODE', sm90_code)
    if (info%cc_major == 9 .and. sm90_code /= '0') then
      call expect(stat == 0, 'sm90_mma fits this device ' // trim(errmsg))
      call config_case('config sm90_mma default', config, 'N', 'N')
    else if (info%cc_major == 9) then
      ! A build without sm_90 code (CMAKE_CUDA_ARCHITECTURES=80) on a Hopper.
      call expect_status('sm90_mma without sm_90 code', stat, TCGEMM_ERROR_ARCHITECTURE, errmsg, &
                         [character(len=32) :: 'CMAKE_CUDA_ARCHITECTURES'])
    else
      call expect_status('sm90_mma on cc /= 9', stat, TCGEMM_ERROR_ARCHITECTURE, errmsg, &
                         [character(len=16) :: 'sm90'])
    end if
  end subroutine test_dgemm_config

  subroutine config_case(what, config, transa, transb)
    character(len=*), intent(in) :: what
    type(tcgemm_config), intent(in) :: config
    character(len=1), intent(in) :: transa, transb
    integer, parameter :: m = 100, n = 70, k = 37
    real(real64), allocatable :: a(:, :), b(:, :), c(:, :), c0(:, :)
    type(tcgemm_device_matrix) :: a_d, b_d, c_d
    integer :: stat
    character(len=MSG_LEN) :: errmsg

    allocate(a(merge(m, k, transa == 'N'), merge(k, m, transa == 'N')))
    allocate(b(merge(k, n, transb == 'N'), merge(n, k, transb == 'N')))
    allocate(c(m, n), c0(m, n))
    call random_matrix(a)
    call random_matrix(b)
    call random_matrix(c0)
    call upload(a, 2, a_d)
    call upload(b, 5, b_d)
    call upload(c0, 1, c_d)
    errmsg = ''
    call tcgemm_dgemm_config(config, transa, transb, 1.5_real64, a_d, b_d, -0.5_real64, c_d, &
                             stat=stat, errmsg=errmsg)
    call expect(stat == 0, what // ': stat = 0 ' // trim(errmsg))
    call expect(download(c_d, c), what // ': padding rows of C untouched')
    call expect(gemm_close(transa, transb, 1.5_real64, a, b, -0.5_real64, c0, c), what // ': C')
    call tcgemm_device_deallocate(a_d)
    call tcgemm_device_deallocate(b_d)
    call tcgemm_device_deallocate(c_d)
  end subroutine config_case

  subroutine test_block_tile()
    integer, parameter :: tiles(2, 4) = reshape([16, 16, 32, 8, 8, 64, 32, 32], [2, 4])
    integer :: t
    character(len=64) :: what

    do t = 1, size(tiles, 2)
      tile_m = tiles(1, t)
      tile_n = tiles(2, t)
      write (what, '(a,i0,a,i0,a)') 'block_tile ', tile_m, 'x', tile_n, ' on 45x33x17'
      call run_product(trim(what), 45, 33, 17, [3, 2, 1], BLOCK_TILE)
    end do
    tile_m = 16
    tile_n = 16
    call run_product('block_tile 16x16 on 16x16x16 (the article)', 16, 16, 16, [0, 0, 0], &
                     BLOCK_TILE)
  end subroutine test_block_tile

  !> peak: every 8x8 tile of C (here 20 x 12, edge tiles partial) is niter * A B, exactly (A, B
  !> hold small integers).
  subroutine test_peak()
    integer, parameter :: niters(3) = [1, 5, 3]
    real(real64) :: a(8, 4), b(4, 8), ab(8, 8), c(20, 12), expected(20, 12)
    type(tcgemm_device_matrix) :: a_d, b_d, c_d
    integer :: i, j, t, stat
    character(len=MSG_LEN) :: errmsg
    character(len=32) :: what

    call integer_valued_matrix(a, 3)
    call integer_valued_matrix(b, 3)
    ab = matmul(a, b)
    call upload(a, 2, a_d)
    call upload(b, 3, b_d)
    do t = 1, size(niters)
      niter = niters(t)
      write (what, '(a,i0)') 'peak niter=', niter
      c = nan()
      call tcgemm_device_deallocate(c_d)      ! no-op the first time
      call upload(c, 5, c_d)
      errmsg = ''
      call tcgemm_dmma_peak(a_d, b_d, c_d, niter, stat=stat, errmsg=errmsg)
      call expect(stat == 0, trim(what) // ': stat = 0 ' // trim(errmsg))
      call expect(download(c_d, c), trim(what) // ': padding rows of C untouched')
      do j = 1, size(c, 2)
        do i = 1, size(c, 1)
          expected(i, j) = niter * ab(modulo(i - 1, 8) + 1, modulo(j - 1, 8) + 1)
        end do
      end do
      call expect(all(c == expected), trim(what) // ': C = niter * A B exactly')
    end do
    call tcgemm_device_deallocate(a_d)
    call tcgemm_device_deallocate(b_d)
    call tcgemm_device_deallocate(c_d)
  end subroutine test_peak

  subroutine test_shared_a()
    integer, parameter :: cases(2, 5) = reshape([32, 0, 32, 2, 64, 4, 96, 6, 128, 2], [2, 5])
    integer :: t
    character(len=64) :: what

    do t = 1, size(cases, 2)
      tile_m = cases(1, t)
      pad_a = cases(2, t)
      write (what, '(a,i0,a,i0,a)') 'shared_a tile ', tile_m, ' pad_a ', pad_a, ' on 100x70x37'
      call run_product(trim(what), 100, 70, 37, [3, 1, 2], SHARED_A)
    end do
    tile_m = 32
    pad_a = 2
    call run_product('shared_a tile 32 pad 2 on 33x64x9', 33, 64, 9, [1, 0, 4], SHARED_A)
  end subroutine test_shared_a

  subroutine test_shared_ab()
    ! (tile, tile_k, pad_a, pad_b)
    integer, parameter :: cases(4, 5) = reshape([32, 8, 0, 0, 64, 32, 4, 4, 128, 16, 2, 6, &
                                                 96, 12, 4, 2, 64, 64, 0, 8], [4, 5])
    integer :: t
    character(len=80) :: what

    do t = 1, size(cases, 2)
      tile_m = cases(1, t)
      tile_k = cases(2, t)
      pad_a = cases(3, t)
      pad_b = cases(4, t)
      write (what, '(a,i0,a,i0,a,i0,a,i0,a)') 'shared_ab tile ', tile_m, ' tile_k ', tile_k, &
        ' pads ', pad_a, '/', pad_b, ' on 130x97x65'
      call run_product(trim(what), 130, 97, 65, [3, 1, 2], SHARED_AB)
    end do
    tile_m = 32
    tile_k = 8
    pad_a = 4
    pad_b = 4
    call run_product('shared_ab 32/8 on 7x5x3', 7, 5, 3, [0, 2, 1], SHARED_AB)
  end subroutine test_shared_ab
end program test_wrappers_gpu
