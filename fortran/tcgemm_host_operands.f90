!> Part of module tcgemm (fortran/tcgemm.f90 lists the parts): what a host-array argument of
!> tcgemm_dgemm (the BLAS form) really is, and whether the matrix the call describes fits in it.
!>
!> The BLAS form takes its operands as assumed-rank `x(..)` dummies with TARGET, so that every
!> actual argument arrives without copy-in: an element `a(i, j)` as a rank-0 actual whose
!> address is the parent's element (the sub-matrix idiom, `a(i, j), lda`), and whole arrays or
!> sections of any rank with their own descriptor. That lets the module see what it was given:
!>   * a rank-0 actual (an element or a scalar): its address; the extent is unknown, and the
!>     call is trusted to stay inside the parent, as reference BLAS trusts it;
!>   * a contiguous array: its address and its size, against which the call's reach is checked;
!>   * an array associated with an assumed-size dummy of the caller (`a(lda, *)`): contiguous,
!>     extent unknown (the last extent is -1), trusted like an element;
!>   * a non-contiguous array (`a(i:, j:)` with i > 1, strided sections): rejected by name. Its
!>     elements are not `lda` apart in memory, so no leading dimension could describe it; an
!>     explicit-shape dummy would have packed it into a temporary and the parent's lda would
!>     then have run past the temporary's end.
!> The BLAS-form checks both host GEMMs share (tcgemm_host_dgemm, tcgemm_host_sgemm) are here too:
!> a matrix as stored (stored_matrix), the flag and leading-dimension rules, and the message that
!> says why an operand cannot hold its matrix (problem_of).
!> Programs `use tcgemm`, not this module; tests use host_operand_of to prove the addresses.
module tcgemm_host_operands
  use, intrinsic :: iso_fortran_env, only: int64, real32, real64
  use, intrinsic :: iso_c_binding, only: c_ptr, c_null_ptr, c_loc
  use tcgemm_errors, only: itoa
  implicit none
  private

  public :: host_operand, host_operand_of, operand_problem, matrix_span, UNKNOWN_EXTENT
  public :: stored_matrix, stored, valid_flag, valid_ld, problem_of, check_blas_operands

  !> Describe the actual argument behind an assumed-rank real64 or real32 dummy (see above).
  interface host_operand_of
    module procedure host_operand_of_r64, host_operand_of_r32
  end interface host_operand_of

  !> host_operand%extent of an actual argument whose size the module cannot know.
  integer(int64), parameter :: UNKNOWN_EXTENT = -1

  !> One host-array actual argument as the callee sees it.
  type :: host_operand
    type(c_ptr) :: address = c_null_ptr      !< its first element; null for a zero-size or
                                             !< non-contiguous array (nothing to address)
    integer(int64) :: extent = UNKNOWN_EXTENT !< elements from `address` to the actual's end
    logical :: contiguous = .true.
    integer :: rank = 0                       !< rank of the actual (0: element or scalar)
  end type host_operand

  !> One matrix operand as the call describes it: its rows and columns as stored, their names
  !> in the call's terms (for messages), and whether the call reads or writes it.
  type :: stored_matrix
    integer(int64) :: rows = 0, cols = 0
    character(len=1) :: rows_name = ' ', cols_name = ' '
    logical :: touched = .false.
  end type stored_matrix

contains

  !> Describe the actual argument behind assumed-rank dummy `x` (see the module comment).
  function host_operand_of_r64(x) result(op)
    real(real64), intent(in), target :: x(..)
    type(host_operand) :: op
    integer :: dim

    op%rank = rank(x)
    op%contiguous = is_contiguous(x)
    op%extent = UNKNOWN_EXTENT
    if (op%rank > 0) then
      ! SIZE(x) without DIM is not allowed for an assumed-size actual; its last extent is -1.
      if (size(x, op%rank, int64) >= 0) then
        op%extent = 1
        do dim = 1, op%rank
          op%extent = op%extent * size(x, dim, int64)
        end do
      end if
    end if
    ! C_LOC needs a contiguous array of nonzero size (or a scalar).
    if (op%contiguous .and. op%extent /= 0) op%address = c_loc(x)
  end function host_operand_of_r64

  !> The same for real(real32) actuals (tcgemm_sgemm).
  function host_operand_of_r32(x) result(op)
    real(real32), intent(in), target :: x(..)
    type(host_operand) :: op
    integer :: dim

    op%rank = rank(x)
    op%contiguous = is_contiguous(x)
    op%extent = UNKNOWN_EXTENT
    if (op%rank > 0) then
      ! SIZE(x) without DIM is not allowed for an assumed-size actual; its last extent is -1.
      if (size(x, op%rank, int64) >= 0) then
        op%extent = 1
        do dim = 1, op%rank
          op%extent = op%extent * size(x, dim, int64)
        end do
      end if
    end if
    ! C_LOC needs a contiguous array of nonzero size (or a scalar).
    if (op%contiguous .and. op%extent /= 0) op%address = c_loc(x)
  end function host_operand_of_r32

  !> Elements a rows x cols matrix with leading dimension ld reaches from its first element:
  !> (cols - 1) * ld + rows, or 0 when it is empty. The caller has bounded ld * cols (the
  !> library's size limit), so this cannot overflow.
  pure integer(int64) function matrix_span(rows, cols, ld)
    integer(int64), intent(in) :: rows, cols, ld
    matrix_span = 0
    if (rows > 0 .and. cols > 0) matrix_span = (cols - 1) * ld + rows
  end function matrix_span

  !> Why operand `op` (argument `number`, called `name`) cannot hold the matrix the call
  !> describes, or '' when it can. `matrix` names the matrix ('A'), `shape_text` its shape in the
  !> call's terms ('m x k = 10 x 5') and `reach_text` the formula of its span
  !> ('(k-1)*lda + m'). `touched`: whether the call reads or writes it at all; an operand it
  !> does not touch (BLAS: A and B when alpha = 0) needs no room, but must still be contiguous.
  function operand_problem(op, number, name, matrix, shape_text, ld_name, reach_text, rows, &
                           cols, ld, touched) result(problem)
    type(host_operand), intent(in) :: op
    integer, intent(in) :: number
    character(len=*), intent(in) :: name, matrix, shape_text, ld_name, reach_text
    integer(int64), intent(in) :: rows, cols, ld
    logical, intent(in) :: touched
    character(len=:), allocatable :: problem
    character(len=:), allocatable :: subject
    integer(int64) :: reach

    problem = ''
    subject = 'argument ' // itoa(int(number, int64)) // ' (' // name // ')'
    if (.not. op%contiguous) then
      problem = subject // ' is a non-contiguous array section (such as ' // name // &
                '(i:, j:) with i > 1, or a strided one): its columns are not ' // ld_name // &
                ' elements apart in memory. Pass its first element, ' // name // '(i, j), with ' // &
                'the parent''s ' // ld_name // ' (the BLAS sub-matrix idiom), or a contiguous array'
      return
    end if
    if (.not. touched .or. op%extent == UNKNOWN_EXTENT) return
    reach = matrix_span(rows, cols, ld)
    if (reach > op%extent) then
      problem = subject // ' holds ' // itoa(op%extent) // ' elements, but ' // matrix // &
                ' as stored (' // shape_text // ', ' // ld_name // ' = ' // itoa(ld) // &
                ') reaches element ' // reach_text // ' = ' // itoa(reach) // &
                ' of it: the call would address memory outside the array'
    end if
  end function operand_problem

  !> X as stored for op(X) = X ('N') or X^T ('T', 'C') when op(X) is op_rows x op_cols.
  pure function stored(trans, op_rows, op_cols, op_rows_name, op_cols_name, touched) result(x)
    character(len=1), intent(in) :: trans
    integer(int64), intent(in) :: op_rows, op_cols
    character(len=1), intent(in) :: op_rows_name, op_cols_name
    logical, intent(in) :: touched
    type(stored_matrix) :: x

    if (trans == 'N' .or. trans == 'n') then
      x = stored_matrix(op_rows, op_cols, op_rows_name, op_cols_name, touched)
    else
      x = stored_matrix(op_cols, op_rows, op_cols_name, op_rows_name, touched)
    end if
  end function stored

  pure logical function valid_flag(trans)
    character(len=1), intent(in) :: trans
    valid_flag = index('NnTtCc', trans) > 0
  end function valid_flag

  !> ld >= max(1, rows), and, when the call touches it, at most max_elements (the library's
  !> TCGEMM_MAX_MATRIX_BYTES over the element size) elements.
  pure logical function valid_ld(x, ld, max_elements)
    type(stored_matrix), intent(in) :: x
    integer(int64), intent(in) :: ld, max_elements
    valid_ld = ld >= max(1_int64, x%rows)
    if (valid_ld .and. x%touched .and. x%cols > 0) valid_ld = ld <= max_elements / x%cols
  end function valid_ld

  !> Why operand `op` cannot hold matrix `x` (see operand_problem), or ''.
  function problem_of(op, number, name, matrix, x, ld_name, ld) result(problem)
    type(host_operand), intent(in) :: op
    integer, intent(in) :: number
    character(len=*), intent(in) :: name, matrix, ld_name
    type(stored_matrix), intent(in) :: x
    integer(int64), intent(in) :: ld
    character(len=:), allocatable :: problem
    character(len=24) :: sizes

    write (sizes, '(i0,a,i0)') x%rows, ' x ', x%cols
    problem = operand_problem(op, number, name, matrix, &
                              x%rows_name // ' x ' // x%cols_name // ' = ' // trim(sizes), &
                              ld_name, '(' // x%cols_name // '-1)*' // ld_name // ' + ' // &
                              x%rows_name, x%rows, x%cols, ld, x%touched)
  end function problem_of

  !> The BLAS form's checks of its three arrays, shared by the host GEMMs: A, B and C as stored
  !> for the call (for the caller's element views) and, when the library's own rules accept the
  !> flags, sizes and leading dimensions (its messages come first, from the call itself), why an
  !> array cannot hold its matrix: `problem` ('' when none) and the argument to blame, in reference
  !> BLAS's numbering (A 7, B 9, C 12). reads_ab: whether the call reads A and B.
  subroutine check_blas_operands(transa, transb, m, n, k, reads_ab, a_op, lda, b_op, ldb, c_op, &
                                 ldc, max_elements, a_mat, b_mat, c_mat, problem, blamed)
    character(len=1), intent(in) :: transa, transb
    integer(int64), intent(in) :: m, n, k, lda, ldb, ldc, max_elements
    logical, intent(in) :: reads_ab
    type(host_operand), intent(in) :: a_op, b_op, c_op
    type(stored_matrix), intent(out) :: a_mat, b_mat, c_mat
    character(len=:), allocatable, intent(out) :: problem
    integer, intent(out) :: blamed
    integer, parameter :: ARG_A = 7, ARG_B = 9, ARG_C = 12

    a_mat = stored(transa, m, k, 'm', 'k', reads_ab)
    b_mat = stored(transb, k, n, 'k', 'n', reads_ab)
    c_mat = stored_matrix(m, n, 'm', 'n', m > 0 .and. n > 0)
    problem = ''
    blamed = 0
    if (.not. (valid_flag(transa) .and. valid_flag(transb) .and. min(m, n, k) >= 0 .and. &
               valid_ld(a_mat, lda, max_elements) .and. valid_ld(b_mat, ldb, max_elements) .and. &
               valid_ld(c_mat, ldc, max_elements))) return
    blamed = ARG_A
    problem = problem_of(a_op, ARG_A, 'a', 'A', a_mat, 'lda', lda)
    if (len(problem) > 0) return
    blamed = ARG_B
    problem = problem_of(b_op, ARG_B, 'b', 'B', b_mat, 'ldb', ldb)
    if (len(problem) > 0) return
    blamed = ARG_C
    problem = problem_of(c_op, ARG_C, 'c', 'C', c_mat, 'ldc', ldc)
  end subroutine check_blas_operands

end module tcgemm_host_operands
