!> Part of module tcgemm (fortran/tcgemm.f90 lists the parts): SGEMM on real(real32) device
!> matrices in a chosen precision, the device form of the generic tcgemm_sgemm (assembled in
!> module tcgemm next to the host forms).
!>
!> `call tcgemm_sgemm(transa, transb, alpha, a_d, b_d, beta, c_d, precision [, stream, stat,
!> errmsg])`: tcgemm_dgemm's device form with real(real32) alpha, beta and matrices
!> (type(tcgemm_device_matrix_r32), views included) and the precision of the host form (one of
!> TCGEMM_PRECISION_*, an integer(c_int32_t)). m, n, k and the leading dimensions come from the
!> matrices; asynchronous on `stream` (absent: the default stream). Programs `use tcgemm`, not
!> this module.
module tcgemm_device_sgemm
  use, intrinsic :: iso_fortran_env, only: int64, real32
  use, intrinsic :: iso_c_binding, only: c_char, c_int32_t, c_ptr
  use tcgemm_c, only: c_tcgemm_sgemm
  use tcgemm_errors, only: finish, fail_argument
  use tcgemm_device_matrices, only: stream_or_default
  use tcgemm_device_real32, only: tcgemm_device_matrix_r32
  use tcgemm_device_dgemm, only: conforming
  use tcgemm_host_sgemm, only: precision_problem, ARG_PRECISION
  implicit none
  private

  public :: sgemm_device, sgemm_device_stat64

contains

  !> Device matrices: C <- alpha op(A) op(B) + beta C in `precision`, asynchronous on `stream`.
  !> An unknown precision is blamed first, as in the host form (whatever else is wrong); then the
  !> shapes (conforming, as tcgemm_dgemm's); the rest (flags, leading dimensions, memory) the
  !> library checks before it launches anything. Argument numbers are the C entry point's.
  subroutine sgemm_device(transa, transb, alpha, a, b, beta, c, precision, stream, stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    real(real32), intent(in) :: alpha, beta
    type(tcgemm_device_matrix_r32), intent(in) :: a, b
    type(tcgemm_device_matrix_r32), intent(inout) :: c
    integer(c_int32_t), intent(in) :: precision
    type(c_ptr), intent(in), optional :: stream
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: where = 'tcgemm_sgemm'
    integer(int64) :: m, n, k
    character(kind=c_char) :: c_transa, c_transb

    if (len(precision_problem(precision)) > 0) then
      call fail_argument(where, precision_problem(precision), stat, errmsg, &
                         argument=ARG_PRECISION)
      return
    end if
    if (.not. conforming(where, transa, transb, a%tcgemm_device_matrix, b%tcgemm_device_matrix, &
                         c%tcgemm_device_matrix, m, n, k, stat, errmsg)) return
    c_transa = transa      ! by-value char: see dgemm_host_core (tcgemm_host_dgemm.f90)
    c_transb = transb
    call finish(c_tcgemm_sgemm(c_transa, c_transb, m, n, k, alpha, a%ptr, a%ld, b%ptr, b%ld, &
                               beta, c%ptr, c%ld, precision, stream_or_default(stream)), where, &
                stat, errmsg)
  end subroutine sgemm_device

  !> Device matrices with an int64 stat (a caller compiled with -fdefault-integer-8). stat is
  !> not optional here: that is what tells this specific from sgemm_device.
  subroutine sgemm_device_stat64(transa, transb, alpha, a, b, beta, c, precision, stream, stat, &
                                 errmsg)
    character(len=1), intent(in) :: transa, transb
    real(real32), intent(in) :: alpha, beta
    type(tcgemm_device_matrix_r32), intent(in) :: a, b
    type(tcgemm_device_matrix_r32), intent(inout) :: c
    integer(c_int32_t), intent(in) :: precision
    type(c_ptr), intent(in), optional :: stream
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call sgemm_device(transa, transb, alpha, a, b, beta, c, precision, stream, status, errmsg)
    stat = status
  end subroutine sgemm_device_stat64

end module tcgemm_device_sgemm
