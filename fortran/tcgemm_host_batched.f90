!> Part of module tcgemm (fortran/tcgemm.f90 lists the parts): a batch of small DGEMMs on host
!> arrays, one call for many products C_g <- alpha op(A_g) op(B_g) + beta C_g, g = 1..batch:
!>
!>   call tcgemm_dgemm_batched(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, &
!>                             batch [, stat, errmsg])
!>
!> b(ldb, *, batch) and c(ldc, *, batch) are rank-3 real(real64) host arrays, product g using
!> b(:, :, g) and c(:, :, g); a is rank 3 as well (a(:, :, g) for product g) or rank 2 (one A,
!> e.g. an element operator, shared by every product). The strides between the matrices are
!> taken from the arrays' shapes (size(x, 1) * size(x, 2) elements; 0 for a rank-2 a), and the
!> batch runs through the library's tcgemm_dgemm_strided_batched_host: the matrices go to the GPU
!> packed, the products run in one launch (family batched_small up to m, n = 40, sm90_mma's kernel
!> beyond on a Hopper; elsewhere batched_small up to 128 and larger products one by one), and only
!> the m x n block of each C comes back. Array sections are accepted (a non-contiguous one is copied
!> in, and for c out, by the compiler).
!>
!> Checks, as host-array tcgemm_dgemm's: the library's own rules first (flags, sizes, leading
!> dimensions; its messages name the argument and number it as its C prototype does: strides
!> 9, 12, 16 and batch 17), then the module's, only when those pass: every array the call
!> touches must hold its matrix in each slab ((cols - 1) * ld + rows <= size(x, 1) * size(x, 2))
!> and a rank-3 array at least `batch` slabs (size(x, 3) >= batch). The module's messages number
!> the arguments as this call does (a 7, b 9, c 12, batch 14). stat/errmsg as everywhere in the
!> module; without stat a failure is ERROR STOP with the message.
module tcgemm_host_batched
  use, intrinsic :: iso_fortran_env, only: int32, int64, real64
  use, intrinsic :: iso_c_binding, only: c_char
  use tcgemm_c, only: c_tcgemm_dgemm_strided_batched_host
  use tcgemm_errors, only: finish, fail_argument, itoa
  use tcgemm_host_operands, only: valid_flag
  implicit none
  private

  public :: tcgemm_dgemm_batched

  integer, parameter :: ARG_A = 7, ARG_B = 9, ARG_C = 12, ARG_BATCH = 14

  !> See the module comment. Sizes all default integer or all int64; stat default integer or
  !> int64 (the _stat64 specifics: stat required, which tells them apart).
  interface tcgemm_dgemm_batched
    module procedure batched_a3_i32, batched_a3_i64, batched_a3_i32_stat64, batched_a3_i64_stat64
    module procedure batched_a2_i32, batched_a2_i64, batched_a2_i32_stat64, batched_a2_i64_stat64
  end interface tcgemm_dgemm_batched

contains

  !> Why array `name` (argument `number`, dims(1) x dims(2) per slab, dims(3) slabs; dims(3) < 0:
  !> rank 2, one matrix for every product) cannot hold a rows x cols matrix with leading
  !> dimension ld for each of `batch` products, or ''.
  function slab_problem(number, name, ld_name, dims, rows, cols, ld, batch) result(problem)
    integer, intent(in) :: number
    character(len=*), intent(in) :: name, ld_name
    integer(int64), intent(in) :: dims(3), rows, cols, ld, batch
    character(len=:), allocatable :: problem
    character(len=:), allocatable :: what

    problem = ''
    if (dims(3) >= 0) then
      what = name // '(:, :, g)'
    else
      what = name
    end if
    if (cols > 0 .and. rows > 0) then
      if ((cols - 1) > (dims(1) * dims(2) - rows) / ld .or. dims(1) * dims(2) < rows) then
        problem = 'argument ' // itoa(int(number, int64)) // ' (' // name // '): a ' // &
                  itoa(rows) // ' x ' // itoa(cols) // ' matrix with ' // ld_name // ' = ' // &
                  itoa(ld) // ' needs ' // itoa((cols - 1) * ld + rows) // ' elements, but ' // &
                  what // ' is ' // itoa(dims(1)) // ' x ' // itoa(dims(2))
        return
      end if
    end if
    if (dims(3) >= 0 .and. dims(3) < batch) &
      problem = 'argument ' // itoa(int(number, int64)) // ' (' // name // '): size(' // name // &
                ', 3) = ' // itoa(dims(3)) // ' is less than batch = ' // itoa(batch)
  end function slab_problem

  !> All specifics end here. a_dims(3) < 0: a is rank 2 (strideA = 0).
  subroutine batched_core(transa, transb, m, n, k, alpha, a, a_dims, lda, b, b_dims, ldb, beta, &
                          c, c_dims, ldc, batch, stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    integer(int64), intent(in) :: m, n, k, lda, ldb, ldc, batch
    integer(int64), intent(in) :: a_dims(3), b_dims(3), c_dims(3)
    real(real64), intent(in) :: alpha, beta
    real(real64), intent(in) :: a(*), b(*)
    real(real64), intent(inout) :: c(*)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: where = 'tcgemm_dgemm_batched'
    character(len=:), allocatable :: problem
    character(kind=c_char) :: c_transa, c_transb
    integer(int64) :: a_rows, a_cols, b_rows, b_cols, stride_a
    logical :: reads_ab, writes_c
    integer :: blamed

    if (transa == 'N' .or. transa == 'n') then
      a_rows = m
      a_cols = k
    else
      a_rows = k
      a_cols = m
    end if
    if (transb == 'N' .or. transb == 'n') then
      b_rows = k
      b_cols = n
    else
      b_rows = n
      b_cols = k
    end if
    ! The module's checks only where the library's own rules pass (its message comes first).
    problem = ''
    if (valid_flag(transa) .and. valid_flag(transb) .and. min(m, n, k, batch) >= 0 .and. &
        lda >= max(1_int64, a_rows) .and. ldb >= max(1_int64, b_rows) .and. &
        ldc >= max(1_int64, m)) then
      ! alpha = 0 reads neither A nor B (a NaN alpha reads them, as the library's alpha != 0).
      writes_c = m > 0 .and. n > 0 .and. batch > 0
      reads_ab = writes_c .and. k > 0 .and. .not. (abs(alpha) <= 0.0_real64)
      if (reads_ab) then
        blamed = ARG_A
        problem = slab_problem(ARG_A, 'a', 'lda', a_dims, a_rows, a_cols, lda, batch)
        if (len(problem) == 0) then
          blamed = ARG_B
          problem = slab_problem(ARG_B, 'b', 'ldb', b_dims, b_rows, b_cols, ldb, batch)
        end if
      end if
      if (len(problem) == 0 .and. writes_c) then
        blamed = ARG_C
        problem = slab_problem(ARG_C, 'c', 'ldc', c_dims, m, n, ldc, batch)
      end if
    end if
    if (len(problem) > 0) then
      call fail_argument(where, problem, stat, errmsg, argument=blamed)
      return
    end if
    stride_a = 0
    if (a_dims(3) >= 0) stride_a = a_dims(1) * a_dims(2)
    ! Flags through local c_char variables (see dgemm_host_core in tcgemm_host_dgemm.f90).
    c_transa = transa
    c_transb = transb
    call finish(c_tcgemm_dgemm_strided_batched_host(c_transa, c_transb, m, n, k, alpha, a, lda, &
                                                    stride_a, b, ldb, b_dims(1) * b_dims(2), beta, &
                                                    c, ldc, c_dims(1) * c_dims(2), batch), &
                where, stat, errmsg)
  end subroutine batched_core

  !> The three extents of a rank-3 array, as int64.
  pure function dims3(x) result(d)
    real(real64), intent(in) :: x(:, :, :)
    integer(int64) :: d(3)
    d = [size(x, 1, int64), size(x, 2, int64), size(x, 3, int64)]
  end function dims3

  subroutine batched_a3_i32(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, batch, &
      stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    integer(int32), intent(in) :: m, n, k, lda, ldb, ldc, batch
    real(real64), intent(in) :: alpha, beta
    real(real64), intent(in), contiguous :: a(:, :, :)
    real(real64), intent(in), contiguous :: b(:, :, :)
    real(real64), intent(inout), contiguous :: c(:, :, :)
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call batched_core(transa, transb, int(m, int64), int(n, int64), int(k, int64), alpha, &
                      a, dims3(a), int(lda, int64), b, dims3(b), int(ldb, int64), beta, &
                      c, dims3(c), int(ldc, int64), int(batch, int64), stat, errmsg)
  end subroutine batched_a3_i32

  subroutine batched_a3_i32_stat64(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, batch, &
      stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    integer(int32), intent(in) :: m, n, k, lda, ldb, ldc, batch
    real(real64), intent(in) :: alpha, beta
    real(real64), intent(in), contiguous :: a(:, :, :)
    real(real64), intent(in), contiguous :: b(:, :, :)
    real(real64), intent(inout), contiguous :: c(:, :, :)
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call batched_core(transa, transb, int(m, int64), int(n, int64), int(k, int64), alpha, &
                      a, dims3(a), int(lda, int64), b, dims3(b), int(ldb, int64), beta, &
                      c, dims3(c), int(ldc, int64), int(batch, int64), status, errmsg)
    stat = status
  end subroutine batched_a3_i32_stat64

  subroutine batched_a3_i64(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, batch, &
      stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    integer(int64), intent(in) :: m, n, k, lda, ldb, ldc, batch
    real(real64), intent(in) :: alpha, beta
    real(real64), intent(in), contiguous :: a(:, :, :)
    real(real64), intent(in), contiguous :: b(:, :, :)
    real(real64), intent(inout), contiguous :: c(:, :, :)
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call batched_core(transa, transb, m, n, k, alpha, &
                      a, dims3(a), lda, b, dims3(b), ldb, beta, &
                      c, dims3(c), ldc, batch, stat, errmsg)
  end subroutine batched_a3_i64

  subroutine batched_a3_i64_stat64(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, batch, &
      stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    integer(int64), intent(in) :: m, n, k, lda, ldb, ldc, batch
    real(real64), intent(in) :: alpha, beta
    real(real64), intent(in), contiguous :: a(:, :, :)
    real(real64), intent(in), contiguous :: b(:, :, :)
    real(real64), intent(inout), contiguous :: c(:, :, :)
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call batched_core(transa, transb, m, n, k, alpha, &
                      a, dims3(a), lda, b, dims3(b), ldb, beta, &
                      c, dims3(c), ldc, batch, status, errmsg)
    stat = status
  end subroutine batched_a3_i64_stat64

  subroutine batched_a2_i32(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, batch, &
      stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    integer(int32), intent(in) :: m, n, k, lda, ldb, ldc, batch
    real(real64), intent(in) :: alpha, beta
    real(real64), intent(in), contiguous :: a(:, :)
    real(real64), intent(in), contiguous :: b(:, :, :)
    real(real64), intent(inout), contiguous :: c(:, :, :)
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call batched_core(transa, transb, int(m, int64), int(n, int64), int(k, int64), alpha, &
                      a, [size(a, 1, int64), size(a, 2, int64), -1_int64], int(lda, int64), b, dims3(b), int(ldb, int64), beta, &
                      c, dims3(c), int(ldc, int64), int(batch, int64), stat, errmsg)
  end subroutine batched_a2_i32

  subroutine batched_a2_i32_stat64(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, batch, &
      stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    integer(int32), intent(in) :: m, n, k, lda, ldb, ldc, batch
    real(real64), intent(in) :: alpha, beta
    real(real64), intent(in), contiguous :: a(:, :)
    real(real64), intent(in), contiguous :: b(:, :, :)
    real(real64), intent(inout), contiguous :: c(:, :, :)
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call batched_core(transa, transb, int(m, int64), int(n, int64), int(k, int64), alpha, &
                      a, [size(a, 1, int64), size(a, 2, int64), -1_int64], int(lda, int64), b, dims3(b), int(ldb, int64), beta, &
                      c, dims3(c), int(ldc, int64), int(batch, int64), status, errmsg)
    stat = status
  end subroutine batched_a2_i32_stat64

  subroutine batched_a2_i64(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, batch, &
      stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    integer(int64), intent(in) :: m, n, k, lda, ldb, ldc, batch
    real(real64), intent(in) :: alpha, beta
    real(real64), intent(in), contiguous :: a(:, :)
    real(real64), intent(in), contiguous :: b(:, :, :)
    real(real64), intent(inout), contiguous :: c(:, :, :)
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call batched_core(transa, transb, m, n, k, alpha, &
                      a, [size(a, 1, int64), size(a, 2, int64), -1_int64], lda, b, dims3(b), ldb, beta, &
                      c, dims3(c), ldc, batch, stat, errmsg)
  end subroutine batched_a2_i64

  subroutine batched_a2_i64_stat64(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, batch, &
      stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    integer(int64), intent(in) :: m, n, k, lda, ldb, ldc, batch
    real(real64), intent(in) :: alpha, beta
    real(real64), intent(in), contiguous :: a(:, :)
    real(real64), intent(in), contiguous :: b(:, :, :)
    real(real64), intent(inout), contiguous :: c(:, :, :)
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call batched_core(transa, transb, m, n, k, alpha, &
                      a, [size(a, 1, int64), size(a, 2, int64), -1_int64], lda, b, dims3(b), ldb, beta, &
                      c, dims3(c), ldc, batch, status, errmsg)
    stat = status
  end subroutine batched_a2_i64_stat64

end module tcgemm_host_batched
