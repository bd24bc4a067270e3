!> tcgemm_dgemm_batched on batches of device matrices (type(tcgemm_device_batch)) and what
!> manages them. Usage: test_batched_device cpu|products|copies
!>   cpu (ctest fortran_batched_device_errors_cpu): with or without a GPU, every refused call
!>     (allocation, copies, the product: shapes, counts, flags, layouts, unallocated operands)
!>     returns its stat and an errmsg naming the argument and the rule, and leaves its outputs
!>     alone; empty batches and quick returns need no GPU. Refused calls get handles over host
!>     memory (rejected before the GPU, never dereferenced); no call that passes every check is
!>     given one.
!>   products (fortran_batched_device_products_gpu): random data against a host reference in
!>     Fortran for every operand form, several sizes 2..64 (on an H100 both of the library's
!>     strided routes: batched_small to 32, sm90_mma beyond) and one past 128, alpha/beta including beta = 0 over a NaN-poisoned C and alpha = 0, leading
!>     dimensions past the rows, gaps between the matrices, batches of 0, 1 and many, a shared
!>     A or B, a stream; nothing outside C's matrices is written.
!>   copies (fortran_batched_device_copies_gpu): round trips of every host layout, the zeros
!>     written into the padding, source=/mold=, deallocation.
!> A GPU mode exits 77 (skipped) without a device.
program test_batched_device
  use, intrinsic :: iso_fortran_env, only: int64, real64
  use, intrinsic :: iso_c_binding, only: c_ptr, c_loc, c_null_ptr, c_associated
  use tcgemm
  use test_support
  implicit none

  integer, parameter :: MSG_LEN = 512
  !> How an operand of the product is passed: a batch, or one matrix shared by every product.
  integer, parameter :: BATCH = 0, SHARED = 1
  !> Host storage behind the handles of refused calls.
  integer, parameter :: FAKE_SIZE = 4096
  real(real64), target :: fake_storage(FAKE_SIZE)
  character(len=16) :: which
  type(tcgemm_device_info) :: info

  call get_command_argument(1, which)
  select case (trim(which))
  case ('cpu')
    call test_allocation_errors()
    call test_copy_errors()
    call test_product_errors()
    call test_quick_returns()
  case ('products')
    call skip_without_device(info)
    call test_products()
  case ('copies')
    call skip_without_device(info)
    call test_copies()
  case default
    error stop 'usage: test_batched_device cpu|products|copies'
  end select
  call finish_tests()

contains

  ! =============================================================================================
  ! cpu: refused calls
  ! =============================================================================================

  !> A batch handle over host memory, for calls that must be refused before the GPU.
  function fake(rows, cols, count, ld, stride) result(d)
    integer, intent(in) :: rows, cols, count
    integer, intent(in), optional :: ld, stride
    type(tcgemm_device_batch) :: d
    d = tcgemm_device_batch(c_loc(fake_storage), rows, cols, max(1, rows), 0, count)
    if (present(ld)) d%ld = ld
    d%stride = d%ld * cols
    if (present(stride)) d%stride = stride
  end function fake

  !> The same, one matrix (a shared operand).
  function fake_matrix(rows, cols, ld) result(d)
    integer, intent(in) :: rows, cols
    integer, intent(in), optional :: ld
    type(tcgemm_device_matrix) :: d
    d = tcgemm_device_matrix(c_loc(fake_storage), rows, cols, max(1, rows))
    if (present(ld)) d%ld = ld
  end function fake_matrix

  subroutine test_allocation_errors()
    type(tcgemm_device_batch) :: d, e
    real(real64) :: host(4, 3, 2), none(3, 2, 0)
    integer :: stat
    integer(int64) :: stat64
    character(len=MSG_LEN) :: errmsg

    print '(a)', 'device batches: allocation arguments'
    host = 1.0_real64
    call tcgemm_device_allocate(d, -1, 3, 2, stat=stat, errmsg=errmsg)
    call expect_status('rows < 0', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=40) :: 'tcgemm_device_allocate', &
                                             'rows = -1 and cols = 3 must be >= 0'])
    call tcgemm_device_allocate(d, 4, 3, -2, stat=stat, errmsg=errmsg)
    call expect_status('count < 0', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=40) :: 'count = -2 must be >= 0'])
    call tcgemm_device_allocate(d, 5, 3, 2, ld=4, stat=stat, errmsg=errmsg)
    call expect_status('ld < rows', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=40) :: 'ld = 4 must be >= max(1, rows) = 5'])
    call tcgemm_device_allocate(d, 5, 3, 2, stride=14, stat=stat, errmsg=errmsg)
    call expect_status('stride < ld * cols', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=40) :: 'stride = 14 must be >= ld * cols = 15'])
    call tcgemm_device_allocate(d, 1_int64, 2_int64**40, 2_int64**30, stat=stat, errmsg=errmsg)
    call expect_status('a batch past 2**59 elements', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                       errmsg, [character(len=40) :: 'span more than 2**59 elements'])
    call tcgemm_device_allocate(d, 5_int64, 3_int64, 2_int64, ld=4_int64, stat=stat64, &
                                errmsg=errmsg)
    call expect_status('int64 sizes and stat: ld < rows', int(stat64), &
                       TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, [character(len=40) :: 'ld = 4'])
    call expect(.not. tcgemm_device_allocated(d), 'refused allocations: nothing allocated')

    call tcgemm_device_allocate(d, stat=stat, errmsg=errmsg)
    call expect_status('neither source= nor mold=', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                       errmsg, [character(len=40) :: 'exactly one of source= and mold='])
    call tcgemm_device_allocate(d, source=host, mold=host, stat=stat, errmsg=errmsg)
    call expect_status('source= and mold=', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=40) :: 'exactly one of source= and mold='])
    call tcgemm_device_allocate(d, source=host, ld=3, stat=stat, errmsg=errmsg)
    call expect_status('source= with ld < rows', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=40) :: 'ld = 3 must be >= max(1, rows) = 4'])
    call tcgemm_device_allocate(d, mold=host, ld=3_int64, stat=stat64, errmsg=errmsg)
    call expect_status('mold= with int64 ld and stat', int(stat64), &
                       TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, [character(len=40) :: 'ld = 3'])
    call expect(.not. tcgemm_device_allocated(d), 'refused source=/mold=: nothing allocated')

    d = fake(4, 3, 2)
    call tcgemm_device_allocate(d, 4, 3, 2, stat=stat, errmsg=errmsg)
    call expect_status('allocate an allocated batch', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                       errmsg, [character(len=40) :: 'already allocated', 'deallocate it first'])
    call expect(c_associated(d%ptr, c_loc(fake_storage)) .and. d%count == 2, &
                'allocate an allocated batch: handle unchanged')

    ! Empty batches need no memory and no GPU; the stride defaults to ld * cols.
    call tcgemm_device_allocate(e, 4, 3, 0, ld=6, stat=stat, errmsg=errmsg)
    call expect(stat == 0 .and. .not. tcgemm_device_allocated(e) .and. e%rows == 4 .and. &
                e%cols == 3 .and. e%ld == 6 .and. e%stride == 18 .and. e%count == 0, &
                'allocate 4x3 x 0, ld 6: stat 0, no memory, stride 18')
    call tcgemm_device_deallocate(e, stat=stat)
    call expect(stat == 0 .and. e%count == 0 .and. e%rows == 0, 'deallocate an empty batch')
    call tcgemm_device_allocate(e, 0_int64, 5_int64, 7_int64, stride=6_int64, stat=stat64)
    call expect(stat64 == 0 .and. .not. tcgemm_device_allocated(e) .and. e%ld == 1 .and. &
                e%stride == 6 .and. e%count == 7, 'allocate 0x5 x 7, int64 stride 6: no memory')
    call tcgemm_device_deallocate(e, stat64)
    call tcgemm_device_allocate(e, mold=none, stat=stat)
    call expect(stat == 0 .and. e%rows == 3 .and. e%cols == 2 .and. e%count == 0 .and. &
                e%ld == 3 .and. e%stride == 6, 'mold= of a 3x2x0 array: the shape, no memory')
    call tcgemm_device_deallocate(e, stat=stat)
    call tcgemm_device_deallocate(e, stat=stat)
    call expect(stat == 0, 'deallocate twice: a no-op')
  end subroutine test_allocation_errors

  subroutine test_copy_errors()
    type(tcgemm_device_batch) :: d, unallocated, empty, bad
    real(real64) :: wrong(4, 3, 5), short(5, 3, 4), padded(7, 3, 5), none(5, 3, 0)
    real(real64) :: storage_before(FAKE_SIZE)
    integer :: stat
    character(len=MSG_LEN) :: errmsg

    print '(a)', 'device batches: copy arguments'
    fake_storage = 1.5_real64
    storage_before = fake_storage
    d = fake(5, 3, 5, ld=6)
    wrong = 2.0_real64
    short = 2.0_real64
    padded = 2.0_real64
    call tcgemm_copy(wrong, d, stat=stat, errmsg=errmsg)
    call expect_status('upload 4x3x5 to 5x3 x 5', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=48) :: 'tcgemm_copy (host to device)', 'host array is 4x3x5', &
                                             'rows x cols x count or ld x cols x count'])
    call tcgemm_copy(padded, d, stat=stat, errmsg=errmsg)
    call expect_status('upload 7x3x5 to ld 6', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=48) :: 'host array is 7x3x5', '5x3 x 5 (ld = 6, stride = 18)'])
    call tcgemm_copy(d, short, stat=stat, errmsg=errmsg)
    call expect_status('download 5x3 x 5 to 5x3x4', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                       errmsg, [character(len=48) :: 'tcgemm_copy (device to host)', &
                                                     'host array is 5x3x4'])
    call expect(all(short == 2.0_real64), 'refused download: host array unchanged')

    unallocated = tcgemm_device_batch(c_null_ptr, 5, 3, 5, 15, 4)
    call tcgemm_copy(short, unallocated, stat=stat, errmsg=errmsg)
    call expect_status('upload into an unallocated batch', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                       errmsg, [character(len=48) :: 'has no device memory'])
    bad = fake(5, 3, 5, stride=10)
    call tcgemm_copy(bad, wrong, stat=stat, errmsg=errmsg)
    call expect_status('download from a handle with stride < ld * cols', stat, &
                       TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=48) :: 'the device batch: stride = 10'])
    call expect(all(fake_storage == storage_before), 'refused copies: storage untouched')

    empty = fake(5, 3, 0)
    call tcgemm_copy(none, empty, stat=stat)
    call expect(stat == 0, 'upload of 0 matrices: stat 0')
    call tcgemm_copy(empty, none, stat=stat)
    call expect(stat == 0, 'download of 0 matrices: stat 0')
  end subroutine test_copy_errors

  subroutine test_product_errors()
    type(tcgemm_device_batch) :: a, b, c, none
    real(real64) :: storage_before(FAKE_SIZE)
    integer :: stat
    integer(int64) :: stat64
    character(len=MSG_LEN) :: errmsg

    print '(a)', 'device tcgemm_dgemm_batched: refused calls'
    fake_storage = 2.5_real64
    storage_before = fake_storage

    a = fake(4, 5, 3)
    b = fake(4, 6, 3)
    c = fake(4, 6, 3)
    call tcgemm_dgemm_batched('N', 'N', 1.0_real64, a, b, 0.0_real64, c, stat=stat, errmsg=errmsg)
    call expect_status('op(A) 4x5, op(B) 4x6', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=48) :: 'tcgemm_dgemm_batched', 'op(A) is 4x5', &
                                             'op(B) is 4x6', 'C is 4x6'])
    call expect(tcgemm_last_error_argument() == 0, 'shape mismatch: no single argument blamed')
    call tcgemm_dgemm_batched('T', 'T', 1.0_real64, a, fake(6, 4, 3), 0.0_real64, c, &
                              stat=stat, errmsg=errmsg)
    call expect_status('TT: op(A) 5x4 with C 4x6', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=48) :: 'op(A) is 5x4', 'transa = ''T'''])

    a = fake(4, 5, 2)
    b = fake(5, 6, 3)
    call tcgemm_dgemm_batched('N', 'N', 1.0_real64, a, b, 1.0_real64, c, stat=stat, errmsg=errmsg)
    call expect_status('a holds 2 matrices, c 3', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=48) :: 'argument 4 (a)', 'the batch holds 2 matrices, c 3'])
    call expect(tcgemm_last_error_argument() == 4, 'count of a: argument 4')
    a = fake(4, 5, 3)
    b = fake(5, 6, 4)
    call tcgemm_dgemm_batched('N', 'N', 1.0_real64, a, b, 1.0_real64, c, stat=stat, errmsg=errmsg)
    call expect_status('b holds 4 matrices, c 3', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=48) :: 'argument 5 (b)', 'the batch holds 4 matrices, c 3'])
    call expect(tcgemm_last_error_argument() == 5, 'count of b: argument 5')
    call tcgemm_dgemm_batched('N', 'N', 1.0_real64, none, fake(5, 6, 3), 1.0_real64, c, &
                              stat=stat, errmsg=errmsg)
    call expect_status('a never allocated', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=48) :: 'argument 4 (a)', '(not allocated)'])

    b = fake(5, 6, 3)
    call tcgemm_dgemm_batched('X', 'N', 1.0_real64, a, b, 0.0_real64, c, stat=stat, errmsg=errmsg)
    call expect_status('transa = X (the library)', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=48) :: 'tcgemm_dgemm_batched', 'argument 1 (transa)'])
    none = fake(4, 6, 0)
    call tcgemm_dgemm_batched('N', 'q', 1.0_real64, fake(4, 5, 0), fake(5, 6, 0), 0.0_real64, &
                              none, stat=stat, errmsg=errmsg)
    none = tcgemm_device_batch()
    call expect_status('transb = q with 0 matrices', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                       errmsg, [character(len=48) :: 'argument 2 (transb)'])

    call tcgemm_dgemm_batched('N', 'N', 1.0_real64, tcgemm_device_batch(c_null_ptr, 4, 5, 4, &
                              20, 3), b, 0.0_real64, c, stat=stat, errmsg=errmsg)
    call expect_status('a not allocated', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=48) :: 'argument 4 (a): the batch 4x5 x 3', &
                                             'is not allocated'])
    call tcgemm_dgemm_batched('N', 'N', 1.0_real64, a, tcgemm_device_batch(c_null_ptr, 5, 6, 5, &
                              30, 3), 0.0_real64, c, stat=stat, errmsg=errmsg)
    call expect_status('b not allocated', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=48) :: 'argument 5 (b)', 'is not allocated'])
    c = tcgemm_device_batch(c_null_ptr, 4, 6, 4, 24, 3)
    call tcgemm_dgemm_batched('N', 'N', 0.0_real64, a, b, 2.0_real64, c, stat=stat, &
                              errmsg=errmsg)
    call expect_status('c not allocated (alpha = 0)', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                       errmsg, [character(len=48) :: 'argument 7 (c)', 'is not allocated'])
    call expect(tcgemm_last_error_argument() == 7, 'c not allocated: argument 7')

    c = fake(4, 6, -1)
    call tcgemm_dgemm_batched('N', 'N', 1.0_real64, a, b, 0.0_real64, c, stat=stat, &
                              errmsg=errmsg)
    c = fake(4, 6, 3)
    call expect_status('count of c = -1', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=48) :: 'argument 7 (c): count = -1 must be >= 0'])
    call tcgemm_dgemm_batched('N', 'N', 1.0_real64, fake(4, 5, 3, ld=3), b, 0.0_real64, c, &
                              stat=stat, errmsg=errmsg)
    call expect_status('a with ld < rows', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=56) :: 'argument 4 (a): ld = 3 must be >= max(1, rows) = 4'])
    c = fake(4, 6, 3, stride=20)
    call tcgemm_dgemm_batched('N', 'N', 1.0_real64, a, b, 0.0_real64, c, stat=stat, &
                              errmsg=errmsg)
    c = fake(4, 6, 3)
    call expect_status('c with stride < ld * cols', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=48) :: 'argument 7 (c): stride = 20', 'ld * cols = 24'])
    call tcgemm_dgemm_batched('N', 'N', 1.0_real64, a, fake(-5, 6, 3), 0.0_real64, c, &
                              stat=stat, errmsg=errmsg)
    call expect_status('b with rows < 0', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=48) :: 'argument 5 (b): rows = -5'])

    ! A device matrix shared by every product: the same shape rules, its own ld, no count.
    call tcgemm_dgemm_batched('N', 'N', 1.0_real64, fake_matrix(4, 4), b, 0.0_real64, c, &
                              stat=stat, errmsg=errmsg)
    call expect_status('shared a 4x4 with b 5x6', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=48) :: 'op(A) is 4x4', 'op(B) is 5x6'])
    call tcgemm_dgemm_batched('T', 'N', 1.0_real64, fake_matrix(5, 4, ld=4), b, 0.0_real64, c, &
                              stat=stat, errmsg=errmsg)
    call expect_status('shared a with ld < rows', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=56) :: 'argument 4 (a): ld = 4 must be >= max(1, rows) = 5'])
    call tcgemm_dgemm_batched('N', 'T', 1.0_real64, a, tcgemm_device_matrix(c_null_ptr, 6, 5, 6), &
                              0.0_real64, c, stat=stat, errmsg=errmsg)
    call expect_status('shared b not allocated', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=56) :: 'argument 5 (b): the matrix 6x5 (ld = 6) shared', &
                                             'is not allocated'])
    call tcgemm_dgemm_batched('N', 'N', 1.0_real64, a, fake_matrix(5, 7), 0.0_real64, c, &
                              c_null_ptr, stat64, errmsg)
    call expect_status('shared b 5x7 with c 4x6, positional stream, int64 stat', int(stat64), &
                       TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, [character(len=48) :: 'op(B) is 5x7'])
    c = fake(4, 6, 2)
    call tcgemm_dgemm_batched('N', 'N', 1.0_real64, a, b, 0.0_real64, c, stat=stat64, &
                              errmsg=errmsg)
    call expect_status('int64 stat: a holds 3, c 2', int(stat64), TCGEMM_ERROR_INVALID_ARGUMENT, &
                       errmsg, [character(len=48) :: 'argument 4 (a)'])
    call expect(all(fake_storage == storage_before), 'refused products: C (and A, B) untouched')
  end subroutine test_product_errors

  !> Calls that pass every check but need no GPU: a batch of 0 matrices, m = 0, and alpha = 0
  !> with beta = 1 (C unchanged); a and b are not read when alpha = 0, so need no memory.
  subroutine test_quick_returns()
    type(tcgemm_device_batch) :: a, b, c
    real(real64) :: storage_before(FAKE_SIZE)
    integer :: stat
    character(len=MSG_LEN) :: errmsg

    print '(a)', 'device tcgemm_dgemm_batched: quick returns without a GPU'
    fake_storage = 3.5_real64
    storage_before = fake_storage
    call tcgemm_device_allocate(a, 8, 8, 0, stat=stat)
    call tcgemm_device_allocate(b, 8, 8, 0, stat=stat)
    call tcgemm_device_allocate(c, 8, 8, 0, stat=stat)
    errmsg = ''
    call tcgemm_dgemm_batched('N', 'T', 1.0_real64, a, b, 0.0_real64, c, stat=stat, errmsg=errmsg)
    call expect(stat == 0, 'batch of 0 matrices (no memory): stat 0 ' // trim(errmsg))
    call tcgemm_dgemm_batched('N', 'N', 1.0_real64, tcgemm_device_matrix(c_null_ptr, 8, 8, 8), b, &
                              0.0_real64, c, stat=stat, errmsg=errmsg)
    call expect(stat == 0, 'shared a, batch of 0: stat 0 ' // trim(errmsg))
    c = fake(0, 6, 3)
    call tcgemm_dgemm_batched('N', 'N', 1.0_real64, fake(0, 5, 3), fake(5, 6, 3), 0.0_real64, &
                              c, stat=stat, errmsg=errmsg)
    call expect(stat == 0, 'm = 0: stat 0 ' // trim(errmsg))
    c = fake(4, 6, 3)
    call tcgemm_dgemm_batched('N', 'N', 0.0_real64, tcgemm_device_batch(c_null_ptr, 4, 5, 4, 20, &
                              3), tcgemm_device_batch(c_null_ptr, 5, 6, 5, 30, 3), 1.0_real64, &
                              c, stat=stat, errmsg=errmsg)
    call expect(stat == 0, 'alpha = 0, beta = 1, a and b without memory: stat 0 ' // trim(errmsg))
    call expect(all(fake_storage == storage_before), 'quick returns: C untouched')
  end subroutine test_quick_returns

  ! =============================================================================================
  ! products: against a host reference
  ! =============================================================================================

  !> C_g <- alpha op(A_g) op(B_g) + beta C_g for `count` products of m x n x k on the GPU,
  !> checked against the reference of test_support, matrix by matrix. A and B are random in
  !> [-1, 1); C too, or NaN when beta = 0 (must not be read). `pad` rows past each matrix's rows
  !> and `gap` elements between the matrices; C's padding and gaps hold PAD_SENTINEL, which the
  !> product must leave alone. a_form/b_form: BATCH, or SHARED (one matrix for every product).
  subroutine one_case(transa, transb, m, n, k, count, alpha, beta, pad, gap, a_form, b_form, &
                      stream)
    character(len=1), intent(in) :: transa, transb
    integer, intent(in) :: m, n, k, count, pad, gap, a_form, b_form
    real(real64), intent(in) :: alpha, beta
    type(c_ptr), intent(in), optional :: stream
    real(real64), allocatable :: a(:, :, :), b(:, :, :), c0(:, :, :), image(:, :, :)
    real(real64), allocatable :: expected_image(:)
    logical, allocatable :: inside(:)
    type(tcgemm_device_batch) :: a_d, b_d, c_d, raw
    type(tcgemm_device_matrix) :: a_m, b_m
    integer :: ar, ac, br, bc, g, j, stat, na, nb, ldc, first
    integer(int64) :: span
    logical :: close_enough
    character(len=MSG_LEN) :: errmsg
    character(len=128) :: label

    write (label, '(a,a,1x,3(i0,1x),a,i0,a,2(f5.1,1x),a,i0,a,i0,a,2i1)') transa, transb, m, n, &
      k, 'x ', count, ' alpha beta ', alpha, beta, 'pad ', pad, ' gap ', gap, ' shared ', &
      a_form, b_form
    ar = merge(m, k, transa == 'N')
    ac = merge(k, m, transa == 'N')
    br = merge(k, n, transb == 'N')
    bc = merge(n, k, transb == 'N')
    na = merge(1, count, a_form == SHARED)
    nb = merge(1, count, b_form == SHARED)
    allocate (a(ar, ac, max(na, 1)), b(br, bc, max(nb, 1)), c0(m, n, count))
    do g = 1, size(a, 3)
      call random_matrix(a(:, :, g))
    end do
    do g = 1, size(b, 3)
      call random_matrix(b(:, :, g))
    end do
    do g = 1, count
      call random_matrix(c0(:, :, g))
    end do
    if (beta == 0.0_real64) c0 = nan()

    ! A: packed upload into a batch with padding and gaps, or one shared padded matrix.
    ! B: source= with a padded ld (back to back), or one shared matrix from source=.
    errmsg = ''
    if (a_form == SHARED) then
      call tcgemm_device_allocate(a_m, source=a(:, :, 1), ld=ar + pad, stat=stat, errmsg=errmsg)
    else
      call tcgemm_device_allocate(a_d, ar, ac, count, ld=ar + pad, stride=(ar + pad) * ac + gap, &
                                  stat=stat, errmsg=errmsg)
      if (stat == 0) call tcgemm_copy(a(:, :, 1:count), a_d, stat=stat, errmsg=errmsg)
    end if
    call expect(stat == 0, trim(label) // ': A on the device ' // trim(errmsg))
    if (b_form == SHARED) then
      call tcgemm_device_allocate(b_m, source=b(:, :, 1), stat=stat, errmsg=errmsg)
    else
      call tcgemm_device_allocate(b_d, source=b(:, :, 1:count), ld=br + pad, stat=stat, &
                                  errmsg=errmsg)
    end if
    call expect(stat == 0, trim(label) // ': B on the device ' // trim(errmsg))

    ! C: its whole storage written through a raw handle (one column of `span` elements), the
    ! matrices at their places and PAD_SENTINEL everywhere else.
    ldc = m + pad
    call tcgemm_device_allocate(c_d, m, n, count, ld=ldc, stride=ldc * n + gap, stat=stat, &
                                errmsg=errmsg)
    call expect(stat == 0, trim(label) // ': C allocated ' // trim(errmsg))
    span = 0
    if (m > 0 .and. n > 0 .and. count > 0) span = int(count - 1, int64) * c_d%stride + ldc * n
    allocate (expected_image(span), inside(span))
    expected_image = PAD_SENTINEL
    inside = .false.
    do g = 1, count
      do j = 1, n
        first = int((g - 1) * c_d%stride) + (j - 1) * ldc + 1
        expected_image(first:first + m - 1) = c0(:, j, g)
        inside(first:first + m - 1) = .true.
      end do
    end do
    raw = tcgemm_device_batch(c_d%ptr, span, 1, max(span, 1_int64), max(span, 1_int64), &
                              merge(1, 0, span > 0))
    allocate (image(span, 1, raw%count))
    if (span > 0) image(:, 1, 1) = expected_image
    call tcgemm_copy(image, raw, stat=stat, errmsg=errmsg)
    call expect(stat == 0, trim(label) // ': C uploaded ' // trim(errmsg))

    if (a_form == SHARED) then
      call tcgemm_dgemm_batched(transa, transb, alpha, a_m, b_d, beta, c_d, stream=stream, &
                                stat=stat, errmsg=errmsg)
    else if (b_form == SHARED) then
      call tcgemm_dgemm_batched(transa, transb, alpha, a_d, b_m, beta, c_d, stream=stream, &
                                stat=stat, errmsg=errmsg)
    else
      call tcgemm_dgemm_batched(transa, transb, alpha, a_d, b_d, beta, c_d, stream=stream, &
                                stat=stat, errmsg=errmsg)
    end if
    call expect(stat == 0, trim(label) // ': stat 0 ' // trim(errmsg))
    call tcgemm_synchronize(stream, stat=stat, errmsg=errmsg)
    call expect(stat == 0, trim(label) // ': synchronize ' // trim(errmsg))

    if (span > 0) image = -1.0_real64
    call tcgemm_copy(raw, image, stat=stat, errmsg=errmsg)
    call expect(stat == 0, trim(label) // ': C downloaded ' // trim(errmsg))
    close_enough = .true.
    do g = 1, count
      block
        real(real64) :: got(m, n)
        do j = 1, n
          first = int((g - 1) * c_d%stride) + (j - 1) * ldc + 1
          got(:, j) = image(first:first + m - 1, 1, 1)
        end do
        if (.not. gemm_close(transa, transb, alpha, a(:, :, min(g, size(a, 3))), &
                             b(:, :, min(g, size(b, 3))), beta, c0(:, :, g), got)) then
          close_enough = .false.
          print '(a,i0)', '        first wrong matrix: ', g
          exit
        end if
      end block
    end do
    call expect(close_enough, trim(label) // ': every C_g within the rounding bound')
    if (span > 0) call expect(all(image(:, 1, 1) == expected_image .or. inside), &
                              trim(label) // ': padding rows and gaps of C unchanged')

    call tcgemm_device_deallocate(a_d)
    call tcgemm_device_deallocate(b_d)
    call tcgemm_device_deallocate(c_d)
    call tcgemm_device_deallocate(a_m)
    call tcgemm_device_deallocate(b_m)
  end subroutine one_case

  subroutine test_products()
    character(len=2), parameter :: FORMS(4) = ['NN', 'NT', 'TN', 'TT']
    !> m, n, k of the swept sizes, 2..64 (each run in every form), both sides of 32.
    integer, parameter :: SIZES(3, 10) = reshape([2, 2, 2, 5, 7, 3, 8, 8, 8, 13, 4, 9, &
                                                  16, 16, 16, 24, 20, 17, 33, 31, 40, &
                                                  48, 48, 48, 64, 64, 64, 64, 5, 37], [3, 10])
    real(real64), parameter :: ALPHAS(4) = [1.0_real64, -0.5_real64, 2.0_real64, 1.5_real64]
    real(real64), parameter :: BETAS(4) = [0.0_real64, 2.0_real64, 1.0_real64, -1.0_real64]
    integer :: s, f, case_no
    type(c_ptr) :: stream

    print '(a)', 'device tcgemm_dgemm_batched against a host reference'
    case_no = 0
    do s = 1, size(SIZES, 2)
      do f = 1, size(FORMS)
        case_no = case_no + 1
        call one_case(FORMS(f)(1:1), FORMS(f)(2:2), SIZES(1, s), SIZES(2, s), SIZES(3, s), &
                      merge(3, 7, SIZES(1, s) >= 48), ALPHAS(1 + mod(case_no, 4)), &
                      BETAS(1 + mod(case_no, 4)), mod(case_no, 3), 5 * mod(case_no, 2), &
                      BATCH, BATCH)
      end do
    end do
    ! Batch sizes 0 and 1, and many products (several thread blocks of the batched kernel).
    call one_case('N', 'N', 8, 8, 8, 0, 1.0_real64, 0.0_real64, 0, 0, BATCH, BATCH)
    call one_case('T', 'N', 8, 8, 8, 1, 1.0_real64, 0.0_real64, 1, 0, BATCH, BATCH)
    call one_case('N', 'T', 12, 10, 6, 1, -1.0_real64, 0.5_real64, 0, 3, BATCH, BATCH)
    call one_case('N', 'N', 8, 8, 8, 1000, 1.0_real64, 0.0_real64, 0, 0, BATCH, BATCH)
    call one_case('T', 'T', 16, 16, 16, 333, 1.0_real64, 1.0_real64, 2, 4, BATCH, BATCH)
    ! alpha = 0: C <- beta C, A and B not read (beta = 0: C <- 0 over NaN).
    call one_case('N', 'N', 6, 6, 6, 11, 0.0_real64, 3.0_real64, 2, 1, BATCH, BATCH)
    call one_case('T', 'N', 6, 6, 6, 11, 0.0_real64, 0.0_real64, 1, 0, BATCH, BATCH)
    ! One operand shared by every product (the element operator), both sides.
    call one_case('N', 'N', 8, 12, 8, 500, 1.0_real64, 0.0_real64, 0, 0, SHARED, BATCH)
    call one_case('T', 'N', 10, 3, 10, 64, 1.0_real64, 0.5_real64, 1, 2, SHARED, BATCH)
    call one_case('N', 'T', 6, 9, 9, 40, 1.0_real64, 0.0_real64, 2, 0, BATCH, SHARED)
    call one_case('T', 'T', 20, 7, 5, 9, -2.0_real64, 1.0_real64, 0, 3, BATCH, SHARED)
    ! Past 128: the library's route for large products (sm90_mma, or one tcgemm_dgemm each).
    call one_case('N', 'N', 130, 6, 20, 3, 1.0_real64, 0.0_real64, 1, 2, BATCH, BATCH)
    ! On a stream of its own.
    stream = stream_create()
    call one_case('N', 'T', 24, 24, 24, 50, 1.0_real64, -1.0_real64, 1, 1, BATCH, BATCH, stream)
    call one_case('N', 'N', 16, 4, 16, 50, 1.0_real64, 0.0_real64, 0, 0, SHARED, BATCH, stream)
    call stream_destroy(stream)
  end subroutine test_products

  ! =============================================================================================
  ! copies: round trips
  ! =============================================================================================

  subroutine test_copies()
    real(real64) :: x(5, 3, 4), y(5, 3, 4), wide(7, 3, 4), wide_back(7, 3, 4), flat(7 * 3 * 4, 1, 1)
    real(real64), allocatable :: image(:, :, :)
    type(tcgemm_device_batch) :: d, e, raw
    integer :: stat, g
    integer(int64) :: stat64, span
    character(len=MSG_LEN) :: errmsg
    logical :: gaps_zero

    print '(a)', 'device batches: copies and allocation'
    do g = 1, 4
      call random_matrix(x(:, :, g))
    end do
    errmsg = ''
    ! Padding rows (ld 7) and gaps (stride 23 = 7 * 3 + 2): the staged paths.
    call tcgemm_device_allocate(d, 5, 3, 4, ld=7, stride=23, stat=stat, errmsg=errmsg)
    call expect(stat == 0 .and. tcgemm_device_allocated(d) .and. d%stride == 23, &
                'allocate 5x3 x 4, ld 7, stride 23 ' // trim(errmsg))
    call tcgemm_copy(x, d, stat=stat, errmsg=errmsg)
    call expect(stat == 0, 'packed upload ' // trim(errmsg))
    y = 0.0_real64
    call tcgemm_copy(d, y, stat=stat, errmsg=errmsg)
    call expect(stat == 0 .and. all(y == x), 'packed round trip')
    wide = -1.0_real64
    call tcgemm_copy(d, wide, stat=stat, errmsg=errmsg)
    call expect(stat == 0 .and. all(wide(1:5, :, :) == x) .and. all(wide(6:7, :, :) == 0.0_real64), &
                'download with ld rows: the padding rows were written as zeros')
    span = 3 * 23 + 7 * 3
    raw = tcgemm_device_batch(d%ptr, span, 1, span, span, 1)
    allocate (image(span, 1, 1))
    call tcgemm_copy(raw, image, stat=stat, errmsg=errmsg)
    gaps_zero = .true.
    do g = 1, 3
      gaps_zero = gaps_zero .and. all(image(g * 23 - 1:g * 23, 1, 1) == 0.0_real64)
    end do
    call expect(stat == 0 .and. gaps_zero, 'the gaps between the matrices were written as zeros')

    wide = PAD_SENTINEL
    wide(1:5, :, :) = x
    call tcgemm_copy(wide, d, stat=stat, errmsg=errmsg)
    wide_back = 0.0_real64
    call tcgemm_copy(d, wide_back, stat=stat, errmsg=errmsg)
    call expect(stat == 0 .and. all(wide_back == wide), 'ld-row round trip with gaps (staged)')
    call tcgemm_device_deallocate(d, stat=stat)
    call expect(stat == 0 .and. .not. tcgemm_device_allocated(d) .and. d%count == 0, &
                'deallocate: memory freed, handle empty')

    ! Back to back with ld rows: the host array is the device storage (one direct transfer).
    call tcgemm_device_allocate(d, 5, 3, 4, ld=7, stat=stat, errmsg=errmsg)
    call tcgemm_copy(wide, d, stat=stat, errmsg=errmsg)
    wide_back = 0.0_real64
    call tcgemm_copy(d, wide_back, stat=stat, errmsg=errmsg)
    call expect(stat == 0 .and. all(wide_back == wide), 'ld-row round trip, back to back (direct)')
    raw = tcgemm_device_batch(d%ptr, 7 * 3 * 4, 1, 7 * 3 * 4, 7 * 3 * 4, 1)
    call tcgemm_copy(raw, flat, stat=stat64, errmsg=errmsg)
    call expect(stat64 == 0 .and. all(flat == reshape(wide, [7 * 3 * 4, 1, 1])), &
                'direct upload: the storage is the host array, element for element (int64 stat)')
    y = 0.0_real64
    call tcgemm_copy(d, y, stat64)
    call expect(stat64 == 0 .and. all(y == x), 'packed download of it (positional int64 stat)')
    call tcgemm_device_deallocate(d)

    ! source= and mold=.
    call tcgemm_device_allocate(d, source=x, stat=stat, errmsg=errmsg)
    y = 0.0_real64
    call tcgemm_copy(d, y, stat=stat, errmsg=errmsg)
    call expect(stat == 0 .and. d%ld == 5 .and. d%stride == 15 .and. d%count == 4 .and. &
                all(y == x), 'source= round trip (ld 5, stride 15)')
    call tcgemm_device_allocate(e, source=x, ld=8, stat=stat, errmsg=errmsg)
    y = 0.0_real64
    call tcgemm_copy(e, y, stat=stat, errmsg=errmsg)
    call expect(stat == 0 .and. e%ld == 8 .and. e%stride == 24 .and. all(y == x), &
                'source= with ld 8 round trip')
    call tcgemm_device_deallocate(e)
    call tcgemm_device_allocate(e, mold=wide, stat=stat64)
    call expect(stat64 == 0 .and. tcgemm_device_allocated(e) .and. e%rows == 7 .and. &
                e%cols == 3 .and. e%count == 4, 'mold= (int64 stat): the shape')
    call tcgemm_device_deallocate(e, stat=stat64)
    call tcgemm_device_deallocate(d, stat=stat)
    call expect(stat == 0, 'deallocate after source=')

    ! One matrix.
    call tcgemm_device_allocate(d, source=x(:, :, 2:2), ld=6, stat=stat, errmsg=errmsg)
    y(:, :, 1:1) = 0.0_real64
    call tcgemm_copy(d, y(:, :, 1:1), stat=stat, errmsg=errmsg)
    call expect(stat == 0 .and. all(y(:, :, 1) == x(:, :, 2)), 'a batch of one: round trip')
    call tcgemm_device_deallocate(d)
  end subroutine test_copies

end program test_batched_device
