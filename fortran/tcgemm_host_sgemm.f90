!> Part of module tcgemm (fortran/tcgemm.f90 lists the parts): SGEMM on real(real32) host
!> arrays in a chosen precision, the BLAS form of the generic tcgemm_sgemm.
!>
!> `call tcgemm_sgemm(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, precision
!> [, stat, errmsg])` with precision one of TCGEMM_PRECISION_TF32, _FP16, _BF16 (the tensor cores,
!> FP32 accumulation, unit roundoff of the inputs 2^-11, 2^-11, 2^-8) or _FP32 (exact FP32 on the
!> CUDA cores), an integer(c_int32_t) (argument 14, as in the C API). Sizes default integer or
!> int64; stat of either kind (the _stat64 specifics take it as a required argument). The arrays
!> are assumed-rank like tcgemm_dgemm's: elements (`a(i, j), lda`, the BLAS sub-matrix idiom),
!> whole arrays and contiguous sections of any rank arrive without copy and are checked against
!> the call's reach (tcgemm_host_operands). The library copies what the call uses to the GPU,
!> multiplies and copies C back (tcgemm_sgemm_host); gfortran has no real(2), so this is how
!> real(4) data reaches the FP16 and BF16 tensor cores. Programs `use tcgemm`, not this module.
module tcgemm_host_sgemm
  use, intrinsic :: iso_fortran_env, only: int32, int64, real32
  use, intrinsic :: iso_c_binding, only: c_char, c_int32_t, c_associated, c_f_pointer
  use tcgemm_c, only: TCGEMM_MAX_MATRIX_BYTES, c_tcgemm_sgemm_host, TCGEMM_PRECISION_TF32, &
                      TCGEMM_PRECISION_FP32
  use tcgemm_errors, only: finish, fail_argument, itoa
  use tcgemm_host_operands, only: host_operand, host_operand_of, matrix_span, UNKNOWN_EXTENT, &
                                  stored_matrix, check_blas_operands
  implicit none
  private

  public :: sgemm_host_i32, sgemm_host_i64, sgemm_host_i32_stat64, sgemm_host_i64_stat64
  public :: precision_problem, ARG_PRECISION

  !> Position of `precision` in the C API's tcgemm_sgemm and tcgemm_sgemm_host (after reference
  !> SGEMM's 13 arguments): what both Fortran forms blame, as the library would.
  integer, parameter :: ARG_PRECISION = 14

  !> Most elements (ld * columns) of one matrix the library accepts: TCGEMM_MAX_MATRIX_BYTES / 4.
  integer(int64), parameter :: MAX_MATRIX_ELEMENTS = TCGEMM_MAX_MATRIX_BYTES / 4

  !> Stands in for an operand with nothing to address (zero-size or rejected).
  real(real32), target, save :: no_elements(1) = 0.0_real32

contains

  !> Why `precision` is none of TCGEMM_PRECISION_*, in the library's words, or ''. Shared by the
  !> host and device forms, which both check it before anything else.
  function precision_problem(precision) result(problem)
    integer(c_int32_t), intent(in) :: precision
    character(len=:), allocatable :: problem
    problem = ''
    if (precision < TCGEMM_PRECISION_TF32 .or. precision > TCGEMM_PRECISION_FP32) &
      problem = 'argument 14 (precision) = ' // itoa(int(precision, int64)) // &
                ': must be TCGEMM_PRECISION_TF32 (1), TCGEMM_PRECISION_FP16 (2), ' // &
                'TCGEMM_PRECISION_BF16 (3) or TCGEMM_PRECISION_FP32 (4)'
  end function precision_problem

  !> A Fortran view of an operand's elements, for the library's array interface.
  subroutine element_sequence(op, x, ld, elements)
    type(host_operand), intent(in) :: op
    type(stored_matrix), intent(in) :: x
    integer(int64), intent(in) :: ld
    real(real32), pointer, contiguous, intent(out) :: elements(:)
    integer(int64) :: count

    if (.not. c_associated(op%address)) then
      elements => no_elements
      return
    end if
    count = op%extent
    if (count == UNKNOWN_EXTENT) count = matrix_span(x%rows, x%cols, ld)
    call c_f_pointer(op%address, elements, [max(1_int64, count)])
  end subroutine element_sequence

  !> Host-array SGEMM with 64-bit sizes on assumed-rank operands (all specifics end here). As
  !> tcgemm_dgemm's host form: the library checks its own arguments first (flags, sizes, leading
  !> dimensions, precision), numbered as reference SGEMM does; the module's checks of the arrays
  !> (contiguity, extent) run only when those pass.
  subroutine sgemm_host_core(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, &
                             precision, stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    integer(int64), intent(in) :: m, n, k, lda, ldb, ldc
    real(real32), intent(in) :: alpha, beta
    real(real32), intent(in), target :: a(..), b(..)
    real(real32), intent(inout), target :: c(..)
    integer(c_int32_t), intent(in) :: precision
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: where = 'tcgemm_sgemm'
    type(host_operand) :: a_op, b_op, c_op
    type(stored_matrix) :: a_mat, b_mat, c_mat
    real(real32), pointer, contiguous :: a_seq(:), b_seq(:), c_seq(:)
    character(len=:), allocatable :: problem
    character(kind=c_char) :: c_transa, c_transb
    logical :: reads_ab
    integer :: blamed

    a_op = host_operand_of(a)
    b_op = host_operand_of(b)
    c_op = host_operand_of(c)
    ! A and B are read when the product is non-empty and alpha /= 0 (a NaN alpha reads them).
    reads_ab = m > 0 .and. n > 0 .and. k > 0 .and. .not. (abs(alpha) <= 0.0_real32)
    call check_blas_operands(transa, transb, m, n, k, reads_ab, a_op, lda, b_op, ldb, c_op, ldc, &
                             MAX_MATRIX_ELEMENTS, a_mat, b_mat, c_mat, problem, blamed)
    ! The library's own checks (precision among them) come before the arrays': an unknown precision
    ! is blamed even when an array is also wrong, as the C call would blame it.
    if (len(problem) > 0 .and. len(precision_problem(precision)) > 0) then
      problem = precision_problem(precision)
      blamed = ARG_PRECISION
    end if
    if (len(problem) > 0) then
      call fail_argument(where, problem, stat, errmsg, argument=blamed)
      return
    end if

    call element_sequence(a_op, a_mat, lda, a_seq)
    call element_sequence(b_op, b_mat, ldb, b_seq)
    call element_sequence(c_op, c_mat, ldc, c_seq)
    ! Flags copied into local c_char variables before passing them by value (gfortran 12; see
    ! tcgemm_host_dgemm).
    c_transa = transa
    c_transb = transb
    call finish(c_tcgemm_sgemm_host(c_transa, c_transb, m, n, k, alpha, a_seq, lda, b_seq, ldb, &
                                    beta, c_seq, ldc, precision), where, stat, errmsg)
  end subroutine sgemm_host_core

  !> Default-integer sizes and stat (BLAS sgemm plus the precision).
  subroutine sgemm_host_i32(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, &
                            precision, stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    integer(int32), intent(in) :: m, n, k, lda, ldb, ldc
    real(real32), intent(in) :: alpha, beta
    real(real32), intent(in), target :: a(..), b(..)
    real(real32), intent(inout), target :: c(..)
    integer(c_int32_t), intent(in) :: precision
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call sgemm_host_core(transa, transb, int(m, int64), int(n, int64), int(k, int64), alpha, &
                         a, int(lda, int64), b, int(ldb, int64), beta, c, int(ldc, int64), &
                         precision, stat, errmsg)
  end subroutine sgemm_host_i32

  !> int64 sizes, default-integer stat.
  subroutine sgemm_host_i64(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, &
                            precision, stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    integer(int64), intent(in) :: m, n, k, lda, ldb, ldc
    real(real32), intent(in) :: alpha, beta
    real(real32), intent(in), target :: a(..), b(..)
    real(real32), intent(inout), target :: c(..)
    integer(c_int32_t), intent(in) :: precision
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call sgemm_host_core(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, &
                         precision, stat, errmsg)
  end subroutine sgemm_host_i64

  !> int64 sizes and an int64 stat (a caller compiled with -fdefault-integer-8); stat required.
  subroutine sgemm_host_i64_stat64(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, &
                                   ldc, precision, stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    integer(int64), intent(in) :: m, n, k, lda, ldb, ldc
    real(real32), intent(in) :: alpha, beta
    real(real32), intent(in), target :: a(..), b(..)
    real(real32), intent(inout), target :: c(..)
    integer(c_int32_t), intent(in) :: precision
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call sgemm_host_core(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, &
                         precision, status, errmsg)
    stat = status
  end subroutine sgemm_host_i64_stat64

  !> Default-integer sizes with an int64 stat.
  subroutine sgemm_host_i32_stat64(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, &
                                   ldc, precision, stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    integer(int32), intent(in) :: m, n, k, lda, ldb, ldc
    real(real32), intent(in) :: alpha, beta
    real(real32), intent(in), target :: a(..), b(..)
    real(real32), intent(inout), target :: c(..)
    integer(c_int32_t), intent(in) :: precision
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call sgemm_host_core(transa, transb, int(m, int64), int(n, int64), int(k, int64), alpha, &
                         a, int(lda, int64), b, int(ldb, int64), beta, c, int(ldc, int64), &
                         precision, status, errmsg)
    stat = status
  end subroutine sgemm_host_i32_stat64

end module tcgemm_host_sgemm
