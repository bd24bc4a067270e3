!> Part of module tcgemm (fortran/tcgemm.f90 lists the parts): CUDA streams for the `stream=`
!> arguments, without binding libcudart yourself.
!>
!> `call tcgemm_stream_create(s)` makes a blocking stream (its work waits for earlier work on the
!> default stream, where tcgemm_copy uploads run, so "upload, then launch on s" needs no wait in
!> between); `tcgemm_stream_synchronize(s)` waits for everything queued on it and reports errors
!> of earlier launches; `tcgemm_stream_destroy(s)` destroys it and sets s to c_null_ptr (a null
!> stream is a no-op, so clean-up code may call it unconditionally). Each takes stat/errmsg;
!> stat may be default integer or int64 (a caller compiled with -fdefault-integer-8).
!> Programs `use tcgemm`, not this module.
module tcgemm_streams
  use, intrinsic :: iso_fortran_env, only: int32, int64
  use, intrinsic :: iso_c_binding, only: c_int, c_ptr, c_null_ptr
  use tcgemm_c, only: TCGEMM_SUCCESS, c_tcgemm_stream_create, c_tcgemm_stream_destroy, &
                      c_tcgemm_stream_synchronize
  use tcgemm_errors, only: finish
  implicit none
  private

  public :: tcgemm_stream_create, tcgemm_stream_destroy, tcgemm_stream_synchronize

  !> The int64-stat specifics take stat as a required argument: that is what tells them from
  !> the default ones (a call without stat goes to those).
  interface tcgemm_stream_create
    module procedure stream_create, stream_create_stat64
  end interface tcgemm_stream_create
  interface tcgemm_stream_destroy
    module procedure stream_destroy, stream_destroy_stat64
  end interface tcgemm_stream_destroy
  interface tcgemm_stream_synchronize
    module procedure stream_synchronize, stream_synchronize_stat64
  end interface tcgemm_stream_synchronize

contains

  !> A new stream in `stream` (c_null_ptr after a failure; without a GPU stat is
  !> TCGEMM_ERROR_NO_DEVICE).
  subroutine stream_create(stream, stat, errmsg)
    type(c_ptr), intent(out) :: stream
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    stream = c_null_ptr
    call finish(c_tcgemm_stream_create(stream), 'tcgemm_stream_create', stat, errmsg)
  end subroutine stream_create

  !> Destroy `stream` (work queued on it still completes) and set it to c_null_ptr; on failure
  !> `stream` is left as it was.
  subroutine stream_destroy(stream, stat, errmsg)
    type(c_ptr), intent(inout) :: stream
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int) :: status
    status = c_tcgemm_stream_destroy(stream)
    if (status == TCGEMM_SUCCESS) stream = c_null_ptr
    call finish(status, 'tcgemm_stream_destroy', stat, errmsg)
  end subroutine stream_destroy

  !> Wait until all work queued on `stream` (c_null_ptr: the default stream) has finished.
  subroutine stream_synchronize(stream, stat, errmsg)
    type(c_ptr), intent(in) :: stream
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call finish(c_tcgemm_stream_synchronize(stream), 'tcgemm_stream_synchronize', stat, errmsg)
  end subroutine stream_synchronize

  subroutine stream_create_stat64(stream, stat, errmsg)
    type(c_ptr), intent(out) :: stream
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call stream_create(stream, status, errmsg)
    stat = status
  end subroutine stream_create_stat64

  subroutine stream_destroy_stat64(stream, stat, errmsg)
    type(c_ptr), intent(inout) :: stream
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call stream_destroy(stream, status, errmsg)
    stat = status
  end subroutine stream_destroy_stat64

  subroutine stream_synchronize_stat64(stream, stat, errmsg)
    type(c_ptr), intent(in) :: stream
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call stream_synchronize(stream, status, errmsg)
    stat = status
  end subroutine stream_synchronize_stat64

end module tcgemm_streams
