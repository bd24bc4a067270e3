!> The BLAS sub-matrix idiom on host arrays (`a(i, j), lda`), mixed ranks, and the module's own
!> checks of the arrays (contiguity, extent), on a machine with or without a GPU.
!>
!> * Addresses: gfortran must pass an element actual `a(i, j)` to the assumed-rank dummies as
!>   the parent's element, not as a copy; host_operand_of (the function tcgemm_dgemm describes its
!>   arguments with) is compared with c_loc of the element.
!> * Calls that pass every check end at the device gate without a GPU (TCGEMM_ERROR_NO_DEVICE);
!>   with one they run, and the block of C they write is compared with matmul of the parent's
!>   blocks. Either way the rest of C must be untouched.
!> * Rejected calls return TCGEMM_ERROR_INVALID_ARGUMENT, an errmsg that names the argument and
!>   the reason, the argument's number, and leave C untouched.
program test_host_idioms_cpu
  use, intrinsic :: iso_fortran_env, only: int64, real64
  use, intrinsic :: iso_c_binding, only: c_loc, c_associated, c_ptr
  use tcgemm
  use tcgemm_host_operands, only: host_operand, host_operand_of, UNKNOWN_EXTENT   ! white box
  use test_support
  implicit none

  integer, parameter :: MSG_LEN = 1024

  call test_element_addresses()
  call test_idiom_calls()
  call test_non_contiguous_sections()
  call test_extents()
  call test_library_checks_come_first()
  call finish_tests()

contains

  ! ---- addresses -------------------------------------------------------------------------------

  subroutine test_element_addresses()
    real(real64), target :: a(10, 8), v(50)
    real(real64), pointer :: strided(:, :)
    type(host_operand) :: op

    print '(a)', 'what tcgemm_dgemm sees of each kind of actual argument'
    op = host_operand_of(a(3, 4))
    call expect(op%rank == 0 .and. op%extent == UNKNOWN_EXTENT, 'a(3, 4): rank 0, extent unknown')
    call expect(c_associated(op%address, c_loc(a(3, 4))), 'a(3, 4): the parent''s element, no copy')
    op = host_operand_of(v(7))
    call expect(c_associated(op%address, c_loc(v(7))), 'v(7) of a rank-1 array: the parent''s element')
    op = host_operand_of(a)
    call expect(op%rank == 2 .and. op%extent == 80 .and. c_associated(op%address, c_loc(a)), &
                'whole a(10, 8): rank 2, 80 elements, its own address')
    op = host_operand_of(a(:, 3:))
    call expect(op%contiguous .and. op%extent == 60 .and. &
                c_associated(op%address, c_loc(a(1, 3))), &
                'a(:, 3:): contiguous, 60 elements from a(1, 3)')
    op = host_operand_of(a(:, 5))
    call expect(op%rank == 1 .and. op%extent == 10 .and. &
                c_associated(op%address, c_loc(a(1, 5))), 'column a(:, 5): 10 elements from a(1, 5)')
    op = host_operand_of(a(2:, 3:))
    call expect(.not. op%contiguous, 'a(2:, 3:): not contiguous')
    ! An element of a strided pointer is still the parent's element (no copy-in either).
    strided => a(1:10:2, :)
    op = host_operand_of(strided(2, 3))
    call expect(c_associated(op%address, c_loc(a(3, 3))), &
                'element of a strided pointer: the parent''s element')
    call check_assumed_size(a, 10, c_loc(a), c_loc(a(4, 2)))
  end subroutine test_element_addresses

  !> The caller's own `x(ld, *)` dummy passed on whole: contiguous, extent unknown (trusted).
  subroutine check_assumed_size(x, ld, first, element_4_2)
    integer, intent(in) :: ld
    real(real64), intent(in), target :: x(ld, *)
    type(c_ptr), intent(in) :: first, element_4_2
    type(host_operand) :: op

    op = host_operand_of(x)
    call expect(op%rank == 2 .and. op%contiguous .and. op%extent == UNKNOWN_EXTENT .and. &
                c_associated(op%address, first), 'assumed-size x(ld, *): contiguous, extent unknown')
    op = host_operand_of(x(4, 2))
    call expect(c_associated(op%address, element_4_2), 'x(4, 2) of an assumed-size array')
  end subroutine check_assumed_size

  ! ---- calls that pass every check -------------------------------------------------------------

  !> stat of a call that passed every check: NO_DEVICE without a GPU, 0 with one.
  subroutine expect_accepted(what, stat, errmsg)
    character(len=*), intent(in) :: what
    integer, intent(in) :: stat
    character(len=*), intent(in) :: errmsg
    call expect(stat == 0 .or. stat == TCGEMM_ERROR_NO_DEVICE, &
                what // ': accepted (stat 0, or NO_DEVICE without a GPU) ' // trim(errmsg))
  end subroutine expect_accepted

  !> C after a call on the block c(r:r+m-1, s:s+n-1) = alpha * a_blk * b_blk + beta * c0_blk:
  !> the block as computed when the call ran, untouched when it did not; all else untouched.
  subroutine expect_block(what, stat, c, c0, r, s, alpha, a_blk, b_blk, beta)
    character(len=*), intent(in) :: what
    integer, intent(in) :: stat, r, s
    real(real64), intent(in) :: c(:, :), c0(:, :), a_blk(:, :), b_blk(:, :), alpha, beta
    logical, allocatable :: outside(:, :)
    integer :: m, n

    m = size(a_blk, 1)
    n = size(b_blk, 2)
    allocate(outside(size(c, 1), size(c, 2)))
    outside = .true.
    outside(r:r + m - 1, s:s + n - 1) = .false.
    call expect(all(c == c0 .or. .not. outside), what // ': C outside the block untouched')
    if (stat == 0) then
      call expect(gemm_close('N', 'N', alpha, a_blk, b_blk, beta, c0(r:r + m - 1, s:s + n - 1), &
                             c(r:r + m - 1, s:s + n - 1)), what // ': the block of C')
    else
      call expect(all(c == c0), what // ': C untouched (not run)')
    end if
  end subroutine expect_block

  subroutine test_idiom_calls()
    real(real64) :: a(12, 9), b(9, 11), c(13, 10), c0(13, 10), work(12 * 9)
    integer :: stat
    character(len=MSG_LEN) :: errmsg

    print '(a)', 'the sub-matrix idiom and mixed ranks (compile, run or stop at the device gate)'
    call random_matrix(a)
    call random_matrix(b)
    call random_matrix(c0)

    ! C(3:7, 2:5) <- A(2:6, 3:6) B(4:7, 1:4) + C: every operand an element of its parent.
    c = c0
    errmsg = ''
    call tcgemm_dgemm('N', 'N', 5, 4, 4, 1.0_real64, a(2, 3), 12, b(4, 1), 9, 1.0_real64, &
                      c(3, 2), 13, stat=stat, errmsg=errmsg)
    call expect_accepted('elements a(2, 3), b(4, 1), c(3, 2)', stat, errmsg)
    call expect_block('elements', stat, c, c0, 3, 2, 1.0_real64, a(2:6, 3:6), b(4:7, 1:4), &
                      1.0_real64)

    ! Mixed ranks: A in a rank-1 work array (work(5) is a(5, 1)), B whole rank 2, C an element.
    work = reshape(a, [size(work)])
    c = c0
    call tcgemm_dgemm('N', 'N', 6, 10, 9, -1.0_real64, work(5), 12, b, 9, &
                      0.5_real64, c(8, 1), 13, stat=stat, errmsg=errmsg)
    call expect_accepted('work(5) rank 0, b rank 2, c(8, 1) rank 0', stat, errmsg)
    call expect_block('mixed ranks', stat, c, c0, 8, 1, -1.0_real64, a(5:10, :), b(:, 1:10), &
                      0.5_real64)

    ! A whole rank-1 array, a contiguous rank-2 section, int64 sizes.
    c = c0
    call tcgemm_dgemm('N', 'N', 12_int64, 3_int64, 9_int64, 2.0_real64, work, 12_int64, &
                      b(:, 9:), 9_int64, 0.0_real64, c, 13_int64, stat=stat, errmsg=errmsg)
    call expect_accepted('rank-1 work, section b(:, 9:), int64 sizes', stat, errmsg)
    call expect_block('rank 1 and a section', stat, c, c0, 1, 1, 2.0_real64, a, b(:, 9:11), &
                      0.0_real64)

    ! The largest block a whole array holds exactly: (k-1)*lda + m = 8*12 + 12 = its 108 elements.
    c = c0
    call tcgemm_dgemm('N', 'N', 12, 10, 9, 1.0_real64, work, 12, b, 9, 0.0_real64, c, 13, &
                      stat=stat, errmsg=errmsg)
    call expect_accepted('A exactly as large as the call reaches', stat, errmsg)
    call expect_block('exact fit', stat, c, c0, 1, 1, 1.0_real64, a, b(:, 1:10), 0.0_real64)

    ! Quick return through elements: nothing to do, no GPU needed.
    c = c0
    call tcgemm_dgemm('N', 'N', 0, 4, 4, 1.0_real64, a(2, 3), 12, b(4, 1), 9, 0.0_real64, &
                      c(3, 2), 13, stat=stat)
    call expect(stat == 0 .and. all(c == c0), 'm = 0 with elements: stat 0, C untouched')
  end subroutine test_idiom_calls

  ! ---- rejected calls --------------------------------------------------------------------------

  !> A call rejected by the module's checks: stat, message, number, C untouched.
  subroutine expect_rejected(what, stat, errmsg, number, needles, c, c0)
    character(len=*), intent(in) :: what, errmsg
    integer, intent(in) :: stat, number
    character(len=*), intent(in) :: needles(:)
    real(real64), intent(in) :: c(:, :), c0(:, :)
    call expect_status(what, stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, needles)
    call expect(tcgemm_last_error_argument() == number, what // ': tcgemm_last_error_argument')
    call expect(all(c == c0), what // ': C untouched')
  end subroutine expect_rejected

  subroutine test_non_contiguous_sections()
    real(real64) :: a(12, 9), b(9, 11), c(13, 10), c0(13, 10)
    integer :: stat
    character(len=MSG_LEN) :: errmsg

    print '(a)', 'non-contiguous sections are rejected by name, never copied'
    call random_matrix(a)
    call random_matrix(b)
    call random_matrix(c0)
    c = c0
    ! The mistake this guards against: a(i:, j:) with the parent's lda. An explicit-shape dummy
    ! would have received a packed 11 x 6 copy, and lda = 12 would have run past its end.
    call tcgemm_dgemm('N', 'N', 5, 4, 4, 1.0_real64, a(2:, 3:), 12, b, 9, 1.0_real64, c, 13, &
                      stat=stat, errmsg=errmsg)
    call expect_rejected('a(2:, 3:)', stat, errmsg, 7, [character(len=40) :: &
                         'tcgemm_dgemm', 'argument 7 (a)', 'non-contiguous', 'a(i, j)', &
                         'lda'], c, c0)
    call tcgemm_dgemm('N', 'N', 5, 4, 4, 1.0_real64, a, 12, b(1:9:2, :), 9, 1.0_real64, c, 13, &
                      stat=stat, errmsg=errmsg)
    call expect_rejected('strided b(1:9:2, :)', stat, errmsg, 9, [character(len=40) :: &
                         'argument 9 (b)', 'non-contiguous', 'ldb'], c, c0)
    call tcgemm_dgemm('N', 'N', 5, 4, 4, 1.0_real64, a, 12, b, 9, 1.0_real64, c(2:, 2:), 13, &
                      stat=stat, errmsg=errmsg)
    call expect_rejected('c(2:, 2:)', stat, errmsg, 12, [character(len=40) :: &
                         'argument 12 (c)', 'non-contiguous', 'ldc'], c, c0)
    ! Even an operand the call would not read (alpha = 0): it has no address to pass.
    call tcgemm_dgemm('N', 'N', 5, 4, 4, 0.0_real64, a(2:, 3:), 12, b, 9, 1.0_real64, c, 13, &
                      stat=stat, errmsg=errmsg)
    call expect_rejected('a(2:, 3:) with alpha = 0', stat, errmsg, 7, [character(len=40) :: &
                         'argument 7 (a)'], c, c0)
  end subroutine test_non_contiguous_sections

  subroutine test_extents()
    real(real64) :: a(10, 5), b(6, 6), c(8, 6), c0(8, 6), short(49), big(1000)
    integer :: stat
    character(len=MSG_LEN) :: errmsg

    print '(a)', 'calls that would reach past the end of a whole array are rejected by name'
    call random_matrix(a)
    call random_matrix(b)
    call random_matrix(c0)
    short = 1.0_real64
    big = 1.0_real64     ! stands in for every operand a case does not test
    c = c0
    ! A is m x k = 4 x 6 with lda = 10: it reaches (6-1)*10 + 4 = 54 > 50 elements.
    call tcgemm_dgemm('N', 'N', 4, 4, 6, 1.0_real64, a, 10, big, 6, 0.0_real64, c, 8, &
                      stat=stat, errmsg=errmsg)
    call expect_rejected('A k = 6 columns of a(10, 5)', stat, errmsg, 7, [character(len=48) :: &
                         'argument 7 (a) holds 50 elements', 'm x k = 4 x 6', 'lda = 10', &
                         '(k-1)*lda + m = 54', 'outside the array'], c, c0)
    ! 'T': A as stored is k x m, so the reach is (m-1)*lda + k.
    call tcgemm_dgemm('T', 'N', 6, 4, 4, 1.0_real64, a, 10, big, 6, 0.0_real64, c, 8, &
                      stat=stat, errmsg=errmsg)
    call expect_rejected('transa = T: m = 6 columns of a(10, 5)', stat, errmsg, 7, &
                         [character(len=48) :: 'k x m = 4 x 6', '(m-1)*lda + k = 54'], c, c0)
    ! A column section is an array of its own: its 10 elements, not the rest of the parent.
    call tcgemm_dgemm('N', 'N', 4, 4, 2, 1.0_real64, a(:, 2), 10, big, 6, 0.0_real64, c, 8, &
                      stat=stat, errmsg=errmsg)
    call expect_rejected('column section a(:, 2) for k = 2', stat, errmsg, 7, &
                         [character(len=48) :: 'argument 7 (a) holds 10 elements', '= 14'], c, c0)
    ! One element short of (k-1)*lda + m = 4*10 + 10 = 50.
    call tcgemm_dgemm('N', 'N', 10, 4, 5, 1.0_real64, short, 10, big, 6, 0.0_real64, big, 10, &
                      stat=stat, errmsg=errmsg)
    call expect_status('rank 1, one element short', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                       errmsg, [character(len=48) :: 'holds 49 elements', '= 50'])
    ! 'T': B as stored is n x k; k = 7 columns of b(6, 6) reach (7-1)*6 + 5 = 41 > 36.
    call tcgemm_dgemm('N', 'T', 4, 5, 7, 1.0_real64, big, 10, b, 6, 0.0_real64, c, 8, &
                      stat=stat, errmsg=errmsg)
    call expect_rejected('transb = T: k = 7 columns of b(6, 6)', stat, errmsg, 9, &
                         [character(len=48) :: 'argument 9 (b) holds 36 elements', &
                         'n x k = 5 x 7', '(k-1)*ldb + n = 41'], c, c0)
    ! C is written: m x n = 4 x 7 with ldc = 8 reaches 6*8 + 4 = 52 > 48.
    call tcgemm_dgemm('N', 'N', 4, 7, 4, 1.0_real64, big, 10, big, 6, 0.0_real64, c, 8, &
                      stat=stat, errmsg=errmsg)
    call expect_rejected('C n = 7 columns of c(8, 6)', stat, errmsg, 12, &
                         [character(len=48) :: 'argument 12 (c) holds 48 elements', &
                         '(n-1)*ldc + m = 52'], c, c0)
    ! alpha = 0: A and B are not read (reference BLAS), so their size does not matter.
    call tcgemm_dgemm('N', 'N', 4, 4, 6, 0.0_real64, a, 10, big, 6, 0.0_real64, c, 8, &
                      stat=stat, errmsg=errmsg)
    call expect(stat /= TCGEMM_ERROR_INVALID_ARGUMENT, 'alpha = 0: a too small for k is not ' // &
                'an error (A is not read)')
    call expect(stat == 0 .or. all(c == c0), 'alpha = 0: C untouched unless the call ran')
  end subroutine test_extents

  !> The library checks flags, sizes and leading dimensions first and numbers them; its message
  !> wins over the module's where both would fail.
  subroutine test_library_checks_come_first()
    real(real64) :: a(4, 2), b(9, 11), c(13, 10)
    integer :: stat
    character(len=MSG_LEN) :: errmsg

    print '(a)', 'the library''s numbered checks come before the module''s'
    a = 1.0_real64
    b = 1.0_real64
    c = 1.0_real64
    ! lda < m, and a(4, 2) is also too small for m = 5, k = 4.
    call tcgemm_dgemm('N', 'N', 5, 4, 4, 1.0_real64, a, 4, b, 9, 1.0_real64, c, 13, &
                      stat=stat, errmsg=errmsg)
    call expect_status('lda < m on a small array', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'argument 8 (lda)'])
    call expect(tcgemm_last_error_argument() == 8, 'lda < m: argument 8')
    ! m < 0 with a non-contiguous section.
    call tcgemm_dgemm('N', 'N', -5, 4, 4, 1.0_real64, b(2:, 2:), 9, b, 9, 1.0_real64, c, 13, &
                      stat=stat, errmsg=errmsg)
    call expect_status('m < 0 on a non-contiguous section', stat, &
                       TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, [character(len=32) :: 'argument 3 (m)'])
    call expect(tcgemm_last_error_argument() == 3, 'm < 0: argument 3')
  end subroutine test_library_checks_come_first

end program test_host_idioms_cpu
