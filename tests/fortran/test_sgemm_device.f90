!> tcgemm_sgemm on real(real32) device matrices (type(tcgemm_device_matrix_r32)) and what manages
!> them. Argument `cpu` (ctest fortran_sgemm_device_errors_cpu), with or without a GPU: argument
!> errors give stat, an errmsg naming the argument and leave C alone; allocation, copy and view
!> checks of the real32 matrices; views step by 4-byte elements. Matrices there are handles over
!> host memory that every call must reject before it launches anything.
!> Argument `gpu` (fortran_sgemm_device_gpu): every precision and trans form against an FP64
!> reference, leading dimensions past the rows with padding rows that must stay untouched, beta = 0
!> over a NaN-poisoned C, views as operands, a non-default stream, and upload/download round trips.
!> Tolerance from the precision's unit roundoff u_in (2^-11 TF32 and FP16, 2^-8 BF16, 0 FP32) and
!> FP32 accumulation (u32 = 2^-24) over k terms:
!>   |C - ref| <= 2 (2 u_in + (k + 2) u32) |alpha| (|op(A)| |op(B)|) + 4 u32 (|ref| + |beta C0|).
program test_sgemm_device
  use, intrinsic :: iso_fortran_env, only: int64, real32, real64
  use, intrinsic :: iso_c_binding, only: c_ptr, c_loc, c_null_ptr, c_associated
  use, intrinsic :: ieee_arithmetic, only: ieee_value, ieee_quiet_nan, ieee_is_nan
  use tcgemm
  use test_support
  implicit none

  integer, parameter :: MSG_LEN = 512
  !> Sentinel of the padding rows (rows + 1 .. ld) of C, which no call may write.
  real(real32), parameter :: PAD = -7777.25_real32
  !> Host storage behind the fake device handles of the cpu checks (never read by the library).
  real(real32), target :: fake_storage(64 * 64)
  character(len=16) :: which
  type(tcgemm_device_info) :: info

  call get_command_argument(1, which)
  select case (trim(which))
  case ('cpu')
    call test_sgemm_errors()
    call test_management_errors()
    call test_views()
  case ('gpu')
    call skip_without_device(info)
    call test_round_trips()
    call test_products()
    call test_view_operands()
  case default
    error stop 'usage: test_sgemm_device cpu|gpu'
  end select
  call finish_tests()

contains

  ! =============================================================================================
  ! cpu
  ! =============================================================================================

  !> A real(real32) device-matrix handle over host memory, at element `offset` of fake_storage.
  function fake(rows, cols, ld, offset) result(d)
    integer, intent(in) :: rows, cols
    integer, intent(in), optional :: ld, offset
    type(tcgemm_device_matrix_r32) :: d
    integer :: first
    first = 1
    if (present(offset)) first = offset
    d = tcgemm_device_matrix_r32(c_loc(fake_storage(first)), rows, cols, max(1, rows))
    if (present(ld)) d%ld = ld
  end function fake

  subroutine test_sgemm_errors()
    type(tcgemm_device_matrix_r32) :: a, b, c, no_memory
    real(real32) :: before(size(fake_storage))
    integer :: stat
    character(len=MSG_LEN) :: errmsg

    print '(a)', 'device tcgemm_sgemm: argument checks (nothing launched, C untouched)'
    call random_fill(fake_storage)
    before = fake_storage
    a = fake(10, 5)
    b = fake(4, 6, offset=1001)
    c = fake(10, 6, offset=2001)
    call tcgemm_sgemm('N', 'N', 1.0, a, b, 0.0, c, TCGEMM_PRECISION_TF32, stat=stat, errmsg=errmsg)
    call expect_status('op(A) 10x5, op(B) 4x6', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'tcgemm_sgemm', 'op(A) is 10x5', 'op(B) is 4x6'])
    b = fake(5, 6, offset=1001)
    call tcgemm_sgemm('T', 'N', 1.0, a, b, 0.0, c, TCGEMM_PRECISION_FP16, stat=stat, errmsg=errmsg)
    call expect_status('transa T: op(A) 5x10', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'op(A) is 5x10', 'C is 10x6'])

    call tcgemm_sgemm('N', 'N', 1.0, a, b, 0.0, c, 7, stat=stat, errmsg=errmsg)
    call expect_status('precision 7', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'argument 14 (precision) = 7'])
    call expect(tcgemm_last_error_argument() == 14, 'precision 7: argument 14 blamed')
    b = fake(4, 6, offset=1001)
    call tcgemm_sgemm('N', 'N', 1.0, a, b, 0.0, c, 0, stat=stat, errmsg=errmsg)
    call expect_status('precision 0 and shapes wrong', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                       errmsg, [character(len=32) :: 'argument 14 (precision) = 0'])
    b = fake(5, 6, offset=1001)

    no_memory = tcgemm_device_matrix_r32(c_null_ptr, 10, 5, 10)
    call tcgemm_sgemm('N', 'N', 1.0, no_memory, b, 0.0, c, TCGEMM_PRECISION_BF16, stat=stat, &
                      errmsg=errmsg)
    call expect_status('unallocated A', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'argument 7 (A) is NULL'])
    no_memory = tcgemm_device_matrix_r32(c_null_ptr, 10, 6, 10)
    call tcgemm_sgemm('N', 'N', 1.0, a, b, 0.0, no_memory, TCGEMM_PRECISION_FP32, stat=stat, &
                      errmsg=errmsg)
    call expect_status('unallocated C', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'argument 12 (C) is NULL'])

    call tcgemm_sgemm('X', 'N', 1.0, a, b, 0.0, c, TCGEMM_PRECISION_TF32, stat=stat, errmsg=errmsg)
    call expect_status('transa X', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'argument 1 (transa)'])
    c = fake(10, 6, ld=9, offset=2001)        ! ld < rows: only a hand-made handle can be like this
    call tcgemm_sgemm('N', 'N', 1.0, a, b, 0.0, c, TCGEMM_PRECISION_TF32, stat=stat, errmsg=errmsg)
    call expect_status('ldc < m', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'argument 13 (ldc)'])
    call expect(all(fake_storage == before), 'C (and A, B) untouched by every rejected call')

    ! An empty C is a quick return: nothing to do, no GPU needed.
    c = fake(0, 6, offset=2001)
    a = fake(0, 5)
    call tcgemm_sgemm('N', 'N', 1.0, a, b, 0.0, c, TCGEMM_PRECISION_TF32, stat=stat)
    call expect(stat == 0, 'm = 0: quick return, stat = 0')
  end subroutine test_sgemm_errors

  subroutine test_management_errors()
    type(tcgemm_device_matrix_r32) :: d, empty
    real(real32) :: host(5, 3), wrong(4, 3)
    integer :: stat
    character(len=MSG_LEN) :: errmsg

    print '(a)', 'real(real32) device matrices: allocation and copy arguments'
    call tcgemm_device_allocate(d, 5, 3, ld=4, stat=stat, errmsg=errmsg)
    call expect_status('allocate ld < rows', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'tcgemm_device_allocate', 'ld = 4', &
                                             'max(1, rows) = 5'])
    call expect(.not. tcgemm_device_allocated(d), 'allocate ld < rows: nothing allocated')
    call tcgemm_device_allocate(d, -1_int64, 3_int64, stat=stat, errmsg=errmsg)
    call expect_status('allocate rows < 0 (int64)', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'rows = -1'])
    call tcgemm_device_allocate(d, source=host, mold=host, stat=stat, errmsg=errmsg)
    call expect_status('allocate with source and mold', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                       errmsg, [character(len=32) :: 'exactly one of source= and mold='])
    call tcgemm_device_allocate(d, source=host, ld=2, stat=stat, errmsg=errmsg)
    call expect_status('allocate source= with ld < rows', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                       errmsg, [character(len=32) :: 'ld = 2'])

    d = fake(5, 3)
    call tcgemm_device_allocate(d, mold=host, stat=stat, errmsg=errmsg)
    call expect_status('allocate an allocated matrix', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                       errmsg, [character(len=32) :: 'already allocated'])
    call expect(d%rows == 5 .and. d%cols == 3, 'allocate an allocated matrix: handle unchanged')

    call tcgemm_device_allocate(empty, 0, 7, stat=stat)
    call expect(stat == 0 .and. empty%rows == 0 .and. empty%cols == 7 .and. empty%ld == 1, &
                'allocate 0 x 7: stat = 0, ld = 1, no GPU needed')
    call tcgemm_device_deallocate(empty, stat=stat)
    call tcgemm_device_deallocate(empty, stat=stat)
    call expect(stat == 0, 'deallocate a zero-size matrix twice: a no-op')

    wrong = 2.0
    call tcgemm_copy(wrong, d, stat=stat, errmsg=errmsg)
    call expect_status('copy 4x3 host to 5x3 device', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                       errmsg, [character(len=32) :: 'host to device', 'host array is 4x3'])
    call tcgemm_copy(d, wrong, stat=stat, errmsg=errmsg)
    call expect_status('copy 5x3 device to 4x3 host', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                       errmsg, [character(len=32) :: 'device to host'])
    call expect(all(wrong == 2.0), 'rejected download leaves the host array alone')
  end subroutine test_management_errors

  !> Views of real(real32) matrices step by 4-byte elements and keep their type.
  subroutine test_views()
    type(tcgemm_device_matrix_r32) :: parent, v, w
    integer :: stat
    character(len=MSG_LEN) :: errmsg

    print '(a)', 'real(real32) views: address arithmetic and checks'
    parent = fake(12, 9, ld=14)
    v = tcgemm_device_view(parent, 3, 4, 7, 5, stat=stat)
    call expect(stat == 0 .and. v%rows == 7 .and. v%cols == 5 .and. v%ld == 14 .and. v%is_view, &
                'view(3, 4, 7, 5): 7 x 5, the parent''s ld, a view')
    call expect(c_associated(v%ptr, c_loc(fake_storage(3 * 14 + 3))), &
                'view(3, 4, ...) starts at element (3, 4): 4-byte steps')
    w = tcgemm_device_view(v, 2_int64, 3_int64, 6_int64, 3_int64, stat=stat)
    call expect(stat == 0 .and. c_associated(w%ptr, c_loc(fake_storage(5 * 14 + 4))), &
                'a view of a view (int64 indices): the parent''s element (4, 6)')
    v = tcgemm_device_view(parent, 10, 1, 4, 2, stat=stat, errmsg=errmsg)
    call expect_status('view past the last row', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'tcgemm_device_view', 'argument 4 (rows) = 4'])
    call expect(.not. tcgemm_device_allocated(v), 'a rejected view is empty')
    w = tcgemm_device_view(parent, 2, 2, 3, 3)
    call tcgemm_device_deallocate(w, stat=stat)
    call expect(stat == 0 .and. .not. tcgemm_device_allocated(w), &
                'deallocating a view only forgets it (nothing freed)')
  end subroutine test_views

  subroutine random_fill(x)
    real(real32), intent(out) :: x(:)
    real(real64), allocatable :: t(:, :)
    allocate(t(size(x), 1))
    call random_matrix(t)
    x = real(t(:, 1), real32)
  end subroutine random_fill

  ! =============================================================================================
  ! gpu
  ! =============================================================================================

  !> Uniform random real(real32) values in [-1, 1).
  subroutine random_matrix_32(a)
    real(real32), intent(out) :: a(:, :)
    real(real64), allocatable :: t(:, :)
    allocate(t(size(a, 1), size(a, 2)))
    call random_matrix(t)
    a = real(t, real32)
  end subroutine random_matrix_32

  !> Upload and download: packed (rows x cols), verbatim (ld x cols), source= allocation, and a
  !> view narrower than its parent's ld (the rows around it stay the parent's).
  subroutine test_round_trips()
    type(tcgemm_device_matrix_r32) :: d, s, v
    real(real32) :: x(37, 11), padded(40, 11), back(37, 11), back_padded(40, 11), part(5, 4)
    integer :: stat

    print '(a)', 'real(real32) device matrices: round trips'
    call random_matrix_32(x)
    call tcgemm_device_allocate(d, 37, 11, ld=40, stat=stat)
    call expect(stat == 0 .and. tcgemm_device_allocated(d) .and. d%ld == 40, 'allocate 37 x 11, ld 40')
    call tcgemm_copy(x, d, stat=stat)
    back = 0.0
    call tcgemm_copy(d, back, stat=stat)
    call expect(stat == 0 .and. all(back == x), 'packed upload and download: exact')
    call tcgemm_copy(d, back_padded, stat=stat)
    call expect(stat == 0 .and. all(back_padded(1:37, :) == x) .and. &
                all(back_padded(38:, :) == 0.0), 'verbatim download: padding rows uploaded as 0')
    call random_matrix_32(padded)
    call tcgemm_copy(padded, d, stat=stat)
    call tcgemm_copy(d, back_padded, stat=stat)
    call expect(stat == 0 .and. all(back_padded == padded), 'verbatim upload and download: exact')

    part = 5.5
    v = tcgemm_device_view(d, 3, 2, 5, 4)
    call tcgemm_copy(part, v, stat=stat)
    call tcgemm_copy(d, back_padded, stat=stat)
    padded(3:7, 2:5) = 5.5
    call expect(stat == 0 .and. all(back_padded == padded), &
                'upload into a view: its block only, the rest of the parent unchanged')
    part = 0.0
    call tcgemm_copy(v, part, stat=stat)
    call expect(stat == 0 .and. all(part == 5.5), 'download from a view')

    call tcgemm_device_allocate(s, source=x, stat=stat)
    back = 0.0
    call tcgemm_copy(s, back, stat=stat)
    call expect(stat == 0 .and. s%ld == 37 .and. all(back == x), 'allocate source=: contents copied')
    call tcgemm_device_deallocate(s, stat=stat)
    call tcgemm_device_deallocate(d, stat=stat)
    call expect(stat == 0 .and. .not. tcgemm_device_allocated(d), 'deallocate')
  end subroutine test_round_trips

  subroutine test_products()
    character(len=1), parameter :: flags(2) = ['N', 'T']
    integer, parameter :: precisions(4) = [TCGEMM_PRECISION_TF32, TCGEMM_PRECISION_FP16, &
                                           TCGEMM_PRECISION_BF16, TCGEMM_PRECISION_FP32]
    integer :: ip, ia, ib

    print '(a)', 'device tcgemm_sgemm: every precision and trans form'
    do ip = 1, size(precisions)
      do ia = 1, 2
        do ib = 1, 2
          call product_case(flags(ia), flags(ib), 37, 29, 23, 1.0, 0.0, precisions(ip), .false.)
          call product_case(flags(ia), flags(ib), 264, 136, 200, -1.5, 0.5, precisions(ip), &
                            .true.)
        end do
      end do
      call product_case('N', 'N', 40, 24, 8, 0.0, 2.0, precisions(ip), .false.)  ! C scaled
    end do
  end subroutine test_products

  !> Unit roundoff of the inputs' rounding for `precision` (0: FP32, no rounding).
  real(real64) function input_roundoff(precision)
    integer, intent(in) :: precision
    select case (precision)
    case (TCGEMM_PRECISION_BF16)
      input_roundoff = 2.0_real64**(-8)
    case (TCGEMM_PRECISION_FP32)
      input_roundoff = 0.0_real64
    case default                        ! TF32 and FP16: 10 explicit mantissa bits
      input_roundoff = 2.0_real64**(-11)
    end select
  end function input_roundoff

  !> Whether c (m x n) is alpha op(A) op(B) + beta C0 within the header's tolerance; prints the
  !> largest error relative to its bound when not.
  logical function sgemm_close(transa, transb, alpha, a, b, beta, c0, c, precision)
    character(len=1), intent(in) :: transa, transb
    real(real32), intent(in) :: alpha, beta
    real(real32), intent(in) :: a(:, :), b(:, :), c0(:, :), c(:, :)
    integer, intent(in) :: precision
    real(real64), allocatable :: opa(:, :), opb(:, :), ref(:, :), tol(:, :)
    real(real64), parameter :: u32 = 2.0_real64**(-24)
    real(real64) :: u_in
    integer :: k

    if (transa == 'N') then
      allocate(opa, source=real(a, real64))
    else
      allocate(opa, source=transpose(real(a, real64)))
    end if
    if (transb == 'N') then
      allocate(opb, source=real(b, real64))
    else
      allocate(opb, source=transpose(real(b, real64)))
    end if
    allocate(ref(size(c, 1), size(c, 2)), tol(size(c, 1), size(c, 2)))
    k = size(opa, 2)
    u_in = input_roundoff(precision)
    ref = alpha * matmul(opa, opb)
    tol = 2.0_real64 * (2.0_real64 * u_in + (k + 2) * u32) * abs(alpha) * &
          matmul(abs(opa), abs(opb)) + 4.0_real64 * u32 * abs(ref)
    if (beta /= 0.0) then
      ref = ref + beta * real(c0, real64)
      tol = tol + 4.0_real64 * u32 * (abs(ref) + abs(beta * real(c0, real64)))
    end if
    sgemm_close = .not. any(ieee_is_nan(c)) .and. all(abs(c - ref) <= tol + 1.0e-30_real64)
    if (.not. sgemm_close) print '(a,es10.3,a,i0)', '        max |error| / bound = ', &
      maxval(abs(c - ref) / (tol + 1.0e-30_real64), mask=.not. ieee_is_nan(c)), ', NaNs: ', &
      count(ieee_is_nan(c))
  end function sgemm_close

  !> One product with leading dimensions past the rows; C's padding rows hold PAD and must keep
  !> it; beta = 0 poisons C with NaN (never read). on_stream: queued on a stream of its own.
  subroutine product_case(transa, transb, m, n, k, alpha, beta, precision, on_stream)
    character(len=1), intent(in) :: transa, transb
    integer, intent(in) :: m, n, k, precision
    real(real32), intent(in) :: alpha, beta
    logical, intent(in) :: on_stream
    type(tcgemm_device_matrix_r32) :: a_d, b_d, c_d
    real(real32), allocatable :: a(:, :), b(:, :), c0(:, :), c(:, :)
    type(c_ptr) :: stream
    integer :: ar, ac, br, bc, stat
    character(len=MSG_LEN) :: errmsg
    character(len=96) :: what

    ar = merge(m, k, transa == 'N')
    ac = merge(k, m, transa == 'N')
    br = merge(k, n, transb == 'N')
    bc = merge(n, k, transb == 'N')
    allocate(a(ar, ac), b(br, bc), c0(m + 3, n), c(m + 3, n))
    call random_matrix_32(a)
    call random_matrix_32(b)
    call random_matrix_32(c0)
    if (beta == 0.0) c0(1:m, :) = ieee_value(1.0_real32, ieee_quiet_nan)
    c0(m + 1:, :) = PAD
    call tcgemm_device_allocate(a_d, ar, ac, ld=ar + 4)
    call tcgemm_device_allocate(b_d, br, bc, ld=br + 1)
    call tcgemm_device_allocate(c_d, m, n, ld=m + 3)
    call tcgemm_copy(a, a_d)
    call tcgemm_copy(b, b_d)
    call tcgemm_copy(c0, c_d)                   ! ld x cols: verbatim, padding rows included

    stream = c_null_ptr
    if (on_stream) stream = stream_create()
    errmsg = ''
    call tcgemm_sgemm(transa, transb, alpha, a_d, b_d, beta, c_d, precision, stream, &
                      stat=stat, errmsg=errmsg)
    if (stat == 0) call tcgemm_synchronize(stream, stat=stat, errmsg=errmsg)
    if (on_stream) call stream_destroy(stream)
    c = 0.0
    if (stat == 0) call tcgemm_copy(c_d, c, stat=stat, errmsg=errmsg)

    write (what, '(a,a,a,3(i0,a),a,i0,a,f5.2,a,f5.2,a,l1)') 'sgemm ', transa, transb, m, 'x', &
          n, 'x', k, ' ', 'precision ', precision, ' alpha ', alpha, ' beta ', beta, &
          ' stream ', on_stream
    call expect(stat == 0, trim(what) // ': stat 0 ' // trim(errmsg))
    if (stat == 0) then
      call expect(sgemm_close(transa, transb, alpha, a, b, beta, c0(1:m, :), c(1:m, :), &
                              precision), trim(what) // ': every element within tolerance')
      call expect(all(c(m + 1:, :) == PAD), trim(what) // ': padding rows of C untouched')
    end if
    call tcgemm_device_deallocate(a_d)
    call tcgemm_device_deallocate(b_d)
    call tcgemm_device_deallocate(c_d)
  end subroutine product_case

  !> The BLAS sub-matrix idiom on the device: A and C are views into larger parents, B a whole
  !> matrix; the parents' elements around the views stay as they were.
  subroutine test_view_operands()
    integer, parameter :: m = 45, n = 33, k = 28
    integer, parameter :: precisions(4) = [TCGEMM_PRECISION_TF32, TCGEMM_PRECISION_FP16, &
                                           TCGEMM_PRECISION_BF16, TCGEMM_PRECISION_FP32]
    type(tcgemm_device_matrix_r32) :: pa_d, b_d, pc_d, a_v, c_v
    real(real32) :: pa(m + 6, k + 5), b(k, n), pc(m + 9, n + 4), pc_after(m + 9, n + 4)
    real(real32) :: outside(m + 9, n + 4)
    logical :: in_view(m + 9, n + 4)
    integer :: ip, stat
    character(len=MSG_LEN) :: errmsg
    character(len=64) :: what

    print '(a)', 'device tcgemm_sgemm: views as operands'
    in_view = .false.
    in_view(4:m + 3, 3:n + 2) = .true.
    do ip = 1, size(precisions)
      call random_matrix_32(pa)
      call random_matrix_32(b)
      call random_matrix_32(pc)
      call tcgemm_device_allocate(pa_d, source=pa)
      call tcgemm_device_allocate(b_d, source=b)
      call tcgemm_device_allocate(pc_d, source=pc)
      a_v = tcgemm_device_view(pa_d, 2, 4, m, k)
      c_v = tcgemm_device_view(pc_d, 4, 3, m, n)
      errmsg = ''
      call tcgemm_sgemm('N', 'N', 0.75, a_v, b_d, -0.5, c_v, precisions(ip), stat=stat, &
                        errmsg=errmsg)
      if (stat == 0) call tcgemm_synchronize(stat=stat, errmsg=errmsg)
      if (stat == 0) call tcgemm_copy(pc_d, pc_after, stat=stat, errmsg=errmsg)
      write (what, '(a,i0)') 'views A(2, 4) and C(4, 3), precision ', precisions(ip)
      call expect(stat == 0, trim(what) // ': stat 0 ' // trim(errmsg))
      if (stat == 0) then
        call expect(sgemm_close('N', 'N', 0.75, pa(2:m + 1, 4:k + 3), b, -0.5, &
                                pc(4:m + 3, 3:n + 2), pc_after(4:m + 3, 3:n + 2), precisions(ip)), &
                    trim(what) // ': within tolerance')
        outside = merge(pc_after - pc, 0.0, .not. in_view)
        call expect(all(outside == 0.0), trim(what) // ': the parent outside the view unchanged')
      end if
      call tcgemm_device_deallocate(pa_d)
      call tcgemm_device_deallocate(b_d)
      call tcgemm_device_deallocate(pc_d)
    end do
  end subroutine test_view_operands

end program test_sgemm_device
