!> Part of module tcgemm (fortran/tcgemm.f90 lists the parts): a batch of small DGEMMs on
!> batches of device matrices, the device-resident form of tcgemm_dgemm_batched:
!>
!>   call tcgemm_dgemm_batched(transa, transb, alpha, a, b, beta, c [, stream, stat, errmsg])
!>
!> C_g <- alpha op(A_g) op(B_g) + beta C_g for every matrix g of the batch c
!> (type(tcgemm_device_batch)). a and b are batches of c's count, or either one a single device
!> matrix (type(tcgemm_device_matrix), or a view) shared by every product, e.g. an element
!> operator: the stride 0 of the C API. m, n and k follow from the shapes and the flags, as for
!> tcgemm_dgemm on device matrices, and the call runs tcgemm_dgemm_strided_batched with the
!> batches' own leading dimensions and strides (tcgemm.h says which kernel takes which sizes),
!> asynchronously on `stream` (absent: the default stream). This generic shares its name with
!> the host-array form (tcgemm_host_batched); module tcgemm sees one generic.
!>
!> Checks, all before anything reaches the GPU, and C untouched when one fails: every batch
!> keeps its layout rules (a handle built with the structure constructor may not; messages from
!> tcgemm_device_batches.layout_problem), every batch has c's count, op(A) is m x k, op(B) k x n
!> and C m x n, and a batch the call reads (A and B when m, n, k > 0 and alpha /= 0, C when
!> m, n > 0) holds device memory. The messages name the argument and number it as this call does
!> (a 4, b 5, c 7; tcgemm_last_error_argument gives that number, 0 for a shape mismatch, which
!> involves them all). A flag other than N, T or C is left to the library, which names it as
!> argument 1 or 2 (the shape rules need a known flag). BLAS semantics: beta = 0 never reads C,
!> alpha = 0 never reads A or B, and a batch of 0 matrices returns at once.
module tcgemm_device_batched
  use, intrinsic :: iso_fortran_env, only: int64, real64
  use, intrinsic :: iso_c_binding, only: c_char, c_ptr, c_associated
  use tcgemm_c, only: TCGEMM_SUCCESS, c_tcgemm_dgemm_strided_batched
  use tcgemm_errors, only: report, finish, fail_argument, itoa
  use tcgemm_host_operands, only: valid_flag
  use tcgemm_device_matrices, only: tcgemm_device_matrix, stream_or_default
  use tcgemm_device_batches, only: tcgemm_device_batch, layout_problem, batch_text, &
                                   storage_elements
  implicit none
  private

  public :: tcgemm_dgemm_batched

  character(len=*), parameter :: WHERE = 'tcgemm_dgemm_batched'
  !> Positions of the operands in this call, for messages and tcgemm_last_error_argument.
  integer, parameter :: ARG_A = 4, ARG_B = 5, ARG_C = 7

  !> See the module comment. a and b: batches, or one of them a device matrix shared by every
  !> product; stat default integer or int64 (the _stat64 specifics: stat required).
  interface tcgemm_dgemm_batched
    module procedure batched_device, batched_device_stat64
    module procedure batched_shared_a, batched_shared_a_stat64
    module procedure batched_shared_b, batched_shared_b_stat64
  end interface tcgemm_dgemm_batched

contains

  !> A device matrix as a batch of one, for the checks: its layout then goes through the batch
  !> rules (stride ld * cols, which it keeps; batched_core passes the C API stride 0).
  pure function shared(x) result(d)
    type(tcgemm_device_matrix), intent(in) :: x
    type(tcgemm_device_batch) :: d
    d = tcgemm_device_batch(ptr=x%ptr, rows=x%rows, cols=x%cols, ld=x%ld, stride=0, count=1)
    ! A bad ld or cols is named before the stride (layout_problem), and must not overflow here.
    if (x%ld >= 1 .and. x%cols >= 0) then
      if (x%ld <= huge(0_int64) / max(1_int64, x%cols)) d%stride = x%ld * x%cols
    end if
  end function shared

  !> "argument <n> (<name>): " for messages.
  function subject(number, name) result(text)
    integer, intent(in) :: number
    character(len=*), intent(in) :: name
    character(len=:), allocatable :: text
    text = 'argument ' // itoa(int(number, int64)) // ' (' // name // '): '
  end function subject

  !> An operand for messages: the batch, or the shared matrix's shape and ld.
  function operand_text(x, is_shared) result(text)
    type(tcgemm_device_batch), intent(in) :: x
    logical, intent(in) :: is_shared
    character(len=:), allocatable :: text
    if (is_shared) then
      text = 'the matrix ' // itoa(x%rows) // 'x' // itoa(x%cols) // ' (ld = ' // itoa(x%ld) // &
             ') shared by every product'
    else
      text = 'the batch ' // batch_text(x)
    end if
  end function operand_text

  !> Why batch x (argument `name`) does not go with c: its count. A batch never allocated (the
  !> default value, count 0) is the likely cause; say so.
  function count_mismatch(name, x, c) result(text)
    character(len=*), intent(in) :: name
    type(tcgemm_device_batch), intent(in) :: x, c
    character(len=:), allocatable :: text
    text = 'the batch holds ' // itoa(x%count) // ' matrices, c ' // itoa(c%count) // ': ' // &
           name // ' is ' // batch_text(x)
    if (.not. c_associated(x%ptr)) text = text // ' (not allocated)'
    text = text // ', c ' // batch_text(c)
  end function count_mismatch

  !> Rows and columns of op(X) for a known flag.
  pure subroutine op_shape(trans, x, rows, cols)
    character(len=1), intent(in) :: trans
    type(tcgemm_device_batch), intent(in) :: x
    integer(int64), intent(out) :: rows, cols
    if (trans == 'N' .or. trans == 'n') then
      rows = x%rows
      cols = x%cols
    else
      rows = x%cols
      cols = x%rows
    end if
  end subroutine op_shape

  !> Why the operands cannot go to the library, or ''; `blamed` gets the argument at fault (0:
  !> the shapes, which involve all three). m, n, k are set when the flags are known.
  function operand_problem(transa, transb, alpha, a, shared_a, b, shared_b, c, m, n, k, &
                           blamed) result(problem)
    character(len=1), intent(in) :: transa, transb
    real(real64), intent(in) :: alpha
    type(tcgemm_device_batch), intent(in) :: a, b, c
    logical, intent(in) :: shared_a, shared_b
    integer(int64), intent(out) :: m, n, k
    integer, intent(out) :: blamed
    character(len=:), allocatable :: problem
    integer(int64) :: a_rows, a_cols, b_rows, b_cols
    logical :: reads_ab
    character(len=1) :: name

    m = 0
    n = 0
    k = 0
    ! Each operand's own layout first: its sizes mean nothing otherwise.
    name = 'a'
    blamed = ARG_A
    problem = layout_problem(a)
    if (len(problem) == 0) then
      name = 'b'
      blamed = ARG_B
      problem = layout_problem(b)
    end if
    if (len(problem) == 0) then
      name = 'c'
      blamed = ARG_C
      problem = layout_problem(c)
    end if
    if (len(problem) > 0) then
      problem = subject(blamed, name) // problem
      return
    end if
    if (.not. shared_a .and. a%count /= c%count) then
      blamed = ARG_A
      problem = subject(ARG_A, 'a') // count_mismatch('a', a, c)
      return
    end if
    if (.not. shared_b .and. b%count /= c%count) then
      blamed = ARG_B
      problem = subject(ARG_B, 'b') // count_mismatch('b', b, c)
      return
    end if
    blamed = 0
    if (.not. (valid_flag(transa) .and. valid_flag(transb))) return   ! the library names it
    call op_shape(transa, a, a_rows, a_cols)
    call op_shape(transb, b, b_rows, b_cols)
    m = c%rows
    n = c%cols
    k = a_cols
    if (a_rows /= m .or. b_cols /= n .or. b_rows /= k) then
      problem = 'op(A) is ' // itoa(a_rows) // 'x' // itoa(a_cols) // ', op(B) is ' // &
                itoa(b_rows) // 'x' // itoa(b_cols) // ', C is ' // itoa(m) // 'x' // itoa(n) // &
                ': need op(A) m x k, op(B) k x n, C m x n (transa = ''' // transa // &
                ''', transb = ''' // transb // ''')'
      return
    end if
    ! Memory only where the product goes: alpha = 0 reads neither A nor B (a NaN alpha reads
    ! them, as the library's alpha != 0 does).
    reads_ab = m > 0 .and. n > 0 .and. k > 0 .and. c%count > 0 .and. &
               .not. (abs(alpha) <= 0.0_real64)
    if (reads_ab .and. .not. c_associated(a%ptr)) then
      blamed = ARG_A
      problem = subject(ARG_A, 'a') // operand_text(a, shared_a) // ' is not allocated'
    else if (reads_ab .and. .not. c_associated(b%ptr)) then
      blamed = ARG_B
      problem = subject(ARG_B, 'b') // operand_text(b, shared_b) // ' is not allocated'
    else if (storage_elements(c) > 0 .and. .not. c_associated(c%ptr)) then
      blamed = ARG_C
      problem = subject(ARG_C, 'c') // operand_text(c, .false.) // ' is not allocated'
    end if
  end function operand_problem

  !> All specifics end here; shared_a / shared_b: a / b is one matrix for every product.
  subroutine batched_core(transa, transb, alpha, a, shared_a, b, shared_b, beta, c, stream, &
                          stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    real(real64), intent(in) :: alpha, beta
    type(tcgemm_device_batch), intent(in) :: a, b, c
    logical, intent(in) :: shared_a, shared_b
    type(c_ptr), intent(in), optional :: stream
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=:), allocatable :: problem
    character(kind=c_char) :: c_transa, c_transb
    integer(int64) :: m, n, k, stride_a, stride_b
    integer :: blamed

    problem = operand_problem(transa, transb, alpha, a, shared_a, b, shared_b, c, m, n, k, blamed)
    if (len(problem) > 0) then
      call fail_argument(WHERE, problem, stat, errmsg, argument=blamed)
      return
    end if
    ! No matrices, nothing to do; the library would still ask for the pointers of the matrices
    ! the shapes describe, which an empty batch does not have. A bad flag still goes there.
    if (c%count == 0 .and. valid_flag(transa) .and. valid_flag(transb)) then
      call report(TCGEMM_SUCCESS, '', stat, errmsg)
      return
    end if
    ! A shared matrix is the C API's stride 0: the same A (or B) for every product.
    stride_a = merge(0_int64, a%stride, shared_a)
    stride_b = merge(0_int64, b%stride, shared_b)
    c_transa = transa      ! by-value char: see dgemm_host_core (tcgemm_host_dgemm.f90)
    c_transb = transb
    call finish(c_tcgemm_dgemm_strided_batched(c_transa, c_transb, m, n, k, alpha, &
                                               a%ptr, a%ld, stride_a, b%ptr, b%ld, stride_b, &
                                               beta, c%ptr, c%ld, c%stride, c%count, &
                                               stream_or_default(stream)), &
                WHERE, stat, errmsg)
  end subroutine batched_core

  !> Batches a, b and c.
  subroutine batched_device(transa, transb, alpha, a, b, beta, c, stream, stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    real(real64), intent(in) :: alpha, beta
    type(tcgemm_device_batch), intent(in) :: a, b
    type(tcgemm_device_batch), intent(inout) :: c
    type(c_ptr), intent(in), optional :: stream
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call batched_core(transa, transb, alpha, a, .false., b, .false., beta, c, stream, stat, &
                      errmsg)
  end subroutine batched_device

  !> Batches, int64 stat (required: it tells this specific from the one above).
  subroutine batched_device_stat64(transa, transb, alpha, a, b, beta, c, stream, stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    real(real64), intent(in) :: alpha, beta
    type(tcgemm_device_batch), intent(in) :: a, b
    type(tcgemm_device_batch), intent(inout) :: c
    type(c_ptr), intent(in), optional :: stream
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call batched_core(transa, transb, alpha, a, .false., b, .false., beta, c, stream, status, &
                      errmsg)
    stat = status
  end subroutine batched_device_stat64

  !> One A for every product (e.g. an element operator), batches b and c.
  subroutine batched_shared_a(transa, transb, alpha, a, b, beta, c, stream, stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    real(real64), intent(in) :: alpha, beta
    type(tcgemm_device_matrix), intent(in) :: a
    type(tcgemm_device_batch), intent(in) :: b
    type(tcgemm_device_batch), intent(inout) :: c
    type(c_ptr), intent(in), optional :: stream
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call batched_core(transa, transb, alpha, shared(a), .true., b, .false., beta, c, &
                      stream, stat, errmsg)
  end subroutine batched_shared_a

  subroutine batched_shared_a_stat64(transa, transb, alpha, a, b, beta, c, stream, stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    real(real64), intent(in) :: alpha, beta
    type(tcgemm_device_matrix), intent(in) :: a
    type(tcgemm_device_batch), intent(in) :: b
    type(tcgemm_device_batch), intent(inout) :: c
    type(c_ptr), intent(in), optional :: stream
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call batched_core(transa, transb, alpha, shared(a), .true., b, .false., beta, c, &
                      stream, status, errmsg)
    stat = status
  end subroutine batched_shared_a_stat64

  !> Batches a and c, one B for every product (C_g = A_g D^T with transb = 'T', say).
  subroutine batched_shared_b(transa, transb, alpha, a, b, beta, c, stream, stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    real(real64), intent(in) :: alpha, beta
    type(tcgemm_device_batch), intent(in) :: a
    type(tcgemm_device_matrix), intent(in) :: b
    type(tcgemm_device_batch), intent(inout) :: c
    type(c_ptr), intent(in), optional :: stream
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call batched_core(transa, transb, alpha, a, .false., shared(b), .true., beta, c, &
                      stream, stat, errmsg)
  end subroutine batched_shared_b

  subroutine batched_shared_b_stat64(transa, transb, alpha, a, b, beta, c, stream, stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    real(real64), intent(in) :: alpha, beta
    type(tcgemm_device_batch), intent(in) :: a
    type(tcgemm_device_matrix), intent(in) :: b
    type(tcgemm_device_batch), intent(inout) :: c
    type(c_ptr), intent(in), optional :: stream
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call batched_core(transa, transb, alpha, a, .false., shared(b), .true., beta, c, &
                      stream, status, errmsg)
    stat = status
  end subroutine batched_shared_b_stat64

end module tcgemm_device_batched
