!> Part of module tcgemm (fortran/tcgemm.f90 lists the parts): DGEMM on device matrices, and the
!> device and configuration queries that go with it.
!>
!> dgemm_device is the device-matrix form of the generic tcgemm_dgemm (assembled in module
!> tcgemm); conforming (the m, n, k of C <- op(A) op(B) from device matrices) is public to the
!> other parts only. Programs `use tcgemm`, not this module.
!>
!> Every query is a generic with a specific per kind of `stat` and of its other integer argument
!> (device, family, threads), so that a caller built with -fdefault-integer-8 gets its own. The
!> `_stat64` specifics take stat as a required argument, which tells them from the others (a
!> call without stat goes to those); where that integer argument is optional (device), the
!> specific whose device kind differs from its stat kind takes device as a required argument too.
!> All specifics of a query end in its core, which takes int64.
module tcgemm_device_dgemm
  use, intrinsic :: iso_fortran_env, only: int32, int64, real64
  use, intrinsic :: iso_c_binding, only: c_int32_t, c_int64_t, c_char, c_ptr, c_null_char
  use tcgemm_c, only: tcgemm_config, tcgemm_device_info, tcgemm_plan, TCGEMM_PLAN_SUMMARY_LEN, &
                      c_tcgemm_device_info_get, &
                      c_tcgemm_default_config, c_tcgemm_config_validate, &
                      c_tcgemm_config_shared_memory_bytes, c_tcgemm_config_threads_per_block, &
                      c_tcgemm_config_check_device, c_tcgemm_dgemm_select_config, c_tcgemm_dgemm_plan, &
                      c_tcgemm_dgemm, c_tcgemm_dgemm_config
  use tcgemm_errors, only: finish, fail_argument, fits_int32, itoa
  use tcgemm_device_matrices, only: tcgemm_device_matrix, shape_text, stream_or_default
  implicit none
  private

  public :: tcgemm_device_info_get, tcgemm_device_name
  public :: tcgemm_default_config, tcgemm_config_validate, tcgemm_config_shared_memory_bytes
  public :: tcgemm_config_threads_per_block, tcgemm_config_check_device
  public :: tcgemm_dgemm_select_config, tcgemm_dgemm_config, tcgemm_dgemm_plan, tcgemm_plan_summary
  public :: dgemm_device, dgemm_device_stat64, conforming

  !> `device` value meaning "the current CUDA device".
  integer(c_int32_t), parameter :: CURRENT_DEVICE = -1

  interface tcgemm_device_info_get
    module procedure device_info_get_i32, device_info_get_i64
    module procedure device_info_get_i32_stat64, device_info_get_i64_stat64
  end interface tcgemm_device_info_get
  interface tcgemm_default_config
    module procedure default_config_i32, default_config_i64
    module procedure default_config_i32_stat64, default_config_i64_stat64
  end interface tcgemm_default_config
  interface tcgemm_config_validate
    module procedure config_validate, config_validate_stat64
  end interface tcgemm_config_validate
  interface tcgemm_config_shared_memory_bytes
    module procedure config_shared_memory_bytes, config_shared_memory_bytes_stat64
  end interface tcgemm_config_shared_memory_bytes
  interface tcgemm_config_threads_per_block
    module procedure threads_per_block_i32, threads_per_block_i64
    module procedure threads_per_block_i32_stat64, threads_per_block_i64_stat64
  end interface tcgemm_config_threads_per_block
  interface tcgemm_config_check_device
    module procedure check_device_i32, check_device_i64
    module procedure check_device_i32_stat64, check_device_i64_stat64
  end interface tcgemm_config_check_device
  interface tcgemm_dgemm_select_config
    module procedure select_config_i32, select_config_i64
    module procedure select_config_i32_stat64, select_config_i64_stat64
  end interface tcgemm_dgemm_select_config
  !> tcgemm_dgemm_plan(transa, transb, m, n, k, plan [, stat, errmsg]): how tcgemm_dgemm runs this shape.
  !> The plan depends on the shape only; it weighs whole arrays (lda = size(a, 1) = m or k, ldb = k or n).
  interface tcgemm_dgemm_plan
    module procedure dgemm_plan_i32, dgemm_plan_i64, dgemm_plan_i32_stat64, dgemm_plan_i64_stat64
  end interface tcgemm_dgemm_plan
  interface tcgemm_dgemm_config
    module procedure dgemm_config, dgemm_config_stat64
  end interface tcgemm_dgemm_config

contains

  ! =============================================================================================
  ! device information and configurations
  ! =============================================================================================

  !> The `device` argument of a query as int64: the caller's, or the current device when absent.
  pure integer(int64) function device_i32(device)
    integer(int32), intent(in), optional :: device
    device_i32 = CURRENT_DEVICE
    if (present(device)) device_i32 = device
  end function device_i32

  pure integer(int64) function device_i64(device)
    integer(int64), intent(in), optional :: device
    device_i64 = CURRENT_DEVICE
    if (present(device)) device_i64 = device
  end function device_i64

  !> `device` for the library, or false (and an error of `where`) when it has no 32-bit value.
  !> Every negative device is the current one.
  logical function library_device(where, device, which, stat, errmsg)
    character(len=*), intent(in) :: where
    integer(int64), intent(in) :: device
    integer(c_int32_t), intent(out) :: which
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg

    which = CURRENT_DEVICE
    library_device = fits_int32(where, ['device'], [max(device, int(CURRENT_DEVICE, int64))], &
                                stat, errmsg)
    if (library_device) which = int(max(device, int(CURRENT_DEVICE, int64)), c_int32_t)
  end function library_device

  !> Properties of a CUDA device (`device` absent or < 0: the current device). On a machine
  !> without a GPU stat is TCGEMM_ERROR_NO_DEVICE.
  subroutine device_info_get_core(info, device, stat, errmsg)
    type(tcgemm_device_info), intent(out) :: info
    integer(int64), intent(in) :: device
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: where = 'tcgemm_device_info_get'
    integer(c_int32_t) :: which
    if (.not. library_device(where, device, which, stat, errmsg)) return
    call finish(c_tcgemm_device_info_get(which, info), where, stat, errmsg)
  end subroutine device_info_get_core

  subroutine device_info_get_i32(info, device, stat, errmsg)
    type(tcgemm_device_info), intent(out) :: info
    integer(int32), intent(in), optional :: device
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call device_info_get_core(info, device_i32(device), stat, errmsg)
  end subroutine device_info_get_i32

  subroutine device_info_get_i64(info, device, stat, errmsg)
    type(tcgemm_device_info), intent(out) :: info
    integer(int64), intent(in) :: device
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call device_info_get_core(info, device, stat, errmsg)
  end subroutine device_info_get_i64

  subroutine device_info_get_i32_stat64(info, device, stat, errmsg)
    type(tcgemm_device_info), intent(out) :: info
    integer(int32), intent(in) :: device
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call device_info_get_core(info, int(device, int64), status, errmsg)
    stat = status
  end subroutine device_info_get_i32_stat64

  subroutine device_info_get_i64_stat64(info, device, stat, errmsg)
    type(tcgemm_device_info), intent(out) :: info
    integer(int64), intent(in), optional :: device
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call device_info_get_core(info, device_i64(device), status, errmsg)
    stat = status
  end subroutine device_info_get_i64_stat64

  !> The device name of `info` as a Fortran string (without trailing NUL or blanks).
  function tcgemm_device_name(info) result(name)
    type(tcgemm_device_info), intent(in) :: info
    character(len=:), allocatable :: name
    integer :: length, i

    length = 0
    do i = 1, size(info%name)
      if (info%name(i) == c_null_char) exit
      length = i
    end do
    allocate(character(len=length) :: name)
    do i = 1, length
      name(i:i) = info%name(i)
    end do
  end function tcgemm_device_name

  !> A complete configuration (tiles, paddings, stages) of kernel family `family`
  !> (TCGEMM_FAMILY_*). Host only: no GPU needed.
  subroutine default_config_core(family, config, stat, errmsg)
    integer(int64), intent(in) :: family
    type(tcgemm_config), intent(out) :: config
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: where = 'tcgemm_default_config'
    if (.not. fits_int32(where, ['family'], [family], stat, errmsg)) return
    call finish(c_tcgemm_default_config(int(family, c_int32_t), config), where, stat, errmsg)
  end subroutine default_config_core

  subroutine default_config_i32(family, config, stat, errmsg)
    integer(int32), intent(in) :: family
    type(tcgemm_config), intent(out) :: config
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call default_config_core(int(family, int64), config, stat, errmsg)
  end subroutine default_config_i32

  subroutine default_config_i64(family, config, stat, errmsg)
    integer(int64), intent(in) :: family
    type(tcgemm_config), intent(out) :: config
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call default_config_core(family, config, stat, errmsg)
  end subroutine default_config_i64

  subroutine default_config_i32_stat64(family, config, stat, errmsg)
    integer(int32), intent(in) :: family
    type(tcgemm_config), intent(out) :: config
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call default_config_core(int(family, int64), config, status, errmsg)
    stat = status
  end subroutine default_config_i32_stat64

  subroutine default_config_i64_stat64(family, config, stat, errmsg)
    integer(int64), intent(in) :: family
    type(tcgemm_config), intent(out) :: config
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call default_config_core(family, config, status, errmsg)
    stat = status
  end subroutine default_config_i64_stat64

  !> Check every rule of the configuration's family that does not depend on the device.
  subroutine config_validate(config, stat, errmsg)
    type(tcgemm_config), intent(in) :: config
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call finish(c_tcgemm_config_validate(config), 'tcgemm_config_validate', stat, errmsg)
  end subroutine config_validate

  subroutine config_validate_stat64(config, stat, errmsg)
    type(tcgemm_config), intent(in) :: config
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call config_validate(config, status, errmsg)
    stat = status
  end subroutine config_validate_stat64

  !> Shared memory (dynamic + static, bytes) one thread block of `config` needs.
  subroutine config_shared_memory_bytes(config, bytes, stat, errmsg)
    type(tcgemm_config), intent(in) :: config
    integer(int64), intent(out) :: bytes
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int64_t) :: c_bytes

    c_bytes = 0
    call finish(c_tcgemm_config_shared_memory_bytes(config, c_bytes), &
                'tcgemm_config_shared_memory_bytes', stat, errmsg)
    bytes = int(c_bytes, int64)
  end subroutine config_shared_memory_bytes

  subroutine config_shared_memory_bytes_stat64(config, bytes, stat, errmsg)
    type(tcgemm_config), intent(in) :: config
    integer(int64), intent(out) :: bytes
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call config_shared_memory_bytes(config, bytes, status, errmsg)
    stat = status
  end subroutine config_shared_memory_bytes_stat64

  !> Threads per block of `config`.
  subroutine threads_per_block_core(config, threads, stat, errmsg)
    type(tcgemm_config), intent(in) :: config
    integer(int64), intent(out) :: threads
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int32_t) :: c_threads

    c_threads = 0
    call finish(c_tcgemm_config_threads_per_block(config, c_threads), &
                'tcgemm_config_threads_per_block', stat, errmsg)
    threads = int(c_threads, int64)
  end subroutine threads_per_block_core

  subroutine threads_per_block_i32(config, threads, stat, errmsg)
    type(tcgemm_config), intent(in) :: config
    integer(int32), intent(out) :: threads
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(int64) :: count
    call threads_per_block_core(config, count, stat, errmsg)
    threads = int(count, int32)       ! the library's count is 32-bit
  end subroutine threads_per_block_i32

  subroutine threads_per_block_i64(config, threads, stat, errmsg)
    type(tcgemm_config), intent(in) :: config
    integer(int64), intent(out) :: threads
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call threads_per_block_core(config, threads, stat, errmsg)
  end subroutine threads_per_block_i64

  subroutine threads_per_block_i32_stat64(config, threads, stat, errmsg)
    type(tcgemm_config), intent(in) :: config
    integer(int32), intent(out) :: threads
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call threads_per_block_i32(config, threads, status, errmsg)
    stat = status
  end subroutine threads_per_block_i32_stat64

  subroutine threads_per_block_i64_stat64(config, threads, stat, errmsg)
    type(tcgemm_config), intent(in) :: config
    integer(int64), intent(out) :: threads
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call threads_per_block_core(config, threads, status, errmsg)
    stat = status
  end subroutine threads_per_block_i64_stat64

  !> Full check of `config` against a device (validation, architecture, shared-memory limit);
  !> `device` absent or < 0: the current device.
  subroutine check_device_core(config, device, stat, errmsg)
    type(tcgemm_config), intent(in) :: config
    integer(int64), intent(in) :: device
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: where = 'tcgemm_config_check_device'
    integer(c_int32_t) :: which
    if (.not. library_device(where, device, which, stat, errmsg)) return
    call finish(c_tcgemm_config_check_device(config, which), where, stat, errmsg)
  end subroutine check_device_core

  subroutine check_device_i32(config, device, stat, errmsg)
    type(tcgemm_config), intent(in) :: config
    integer(int32), intent(in), optional :: device
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call check_device_core(config, device_i32(device), stat, errmsg)
  end subroutine check_device_i32

  subroutine check_device_i64(config, device, stat, errmsg)
    type(tcgemm_config), intent(in) :: config
    integer(int64), intent(in) :: device
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call check_device_core(config, device, stat, errmsg)
  end subroutine check_device_i64

  subroutine check_device_i32_stat64(config, device, stat, errmsg)
    type(tcgemm_config), intent(in) :: config
    integer(int32), intent(in) :: device
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call check_device_core(config, int(device, int64), status, errmsg)
    stat = status
  end subroutine check_device_i32_stat64

  subroutine check_device_i64_stat64(config, device, stat, errmsg)
    type(tcgemm_config), intent(in) :: config
    integer(int64), intent(in), optional :: device
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call check_device_core(config, device_i64(device), status, errmsg)
    stat = status
  end subroutine check_device_i64_stat64

  !> The configuration tcgemm_dgemm uses on a device (family AUTO resolved); `device` absent or
  !> < 0: the current device.
  subroutine select_config_core(config, device, stat, errmsg)
    type(tcgemm_config), intent(out) :: config
    integer(int64), intent(in) :: device
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: where = 'tcgemm_dgemm_select_config'
    integer(c_int32_t) :: which
    if (.not. library_device(where, device, which, stat, errmsg)) return
    call finish(c_tcgemm_dgemm_select_config(which, config), where, stat, errmsg)
  end subroutine select_config_core

  subroutine select_config_i32(config, device, stat, errmsg)
    type(tcgemm_config), intent(out) :: config
    integer(int32), intent(in), optional :: device
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call select_config_core(config, device_i32(device), stat, errmsg)
  end subroutine select_config_i32

  subroutine select_config_i64(config, device, stat, errmsg)
    type(tcgemm_config), intent(out) :: config
    integer(int64), intent(in) :: device
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call select_config_core(config, device, stat, errmsg)
  end subroutine select_config_i64

  subroutine select_config_i32_stat64(config, device, stat, errmsg)
    type(tcgemm_config), intent(out) :: config
    integer(int32), intent(in) :: device
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call select_config_core(config, int(device, int64), status, errmsg)
    stat = status
  end subroutine select_config_i32_stat64

  subroutine select_config_i64_stat64(config, device, stat, errmsg)
    type(tcgemm_config), intent(out) :: config
    integer(int64), intent(in), optional :: device
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call select_config_core(config, device_i64(device), status, errmsg)
    stat = status
  end subroutine select_config_i64_stat64

  !> How tcgemm_dgemm runs an m x n x k product with these operand forms on the current device:
  !> plan%config is what it runs, tcgemm_plan_summary(plan) the model's one-line reasons. Sizes
  !> all default integer or all int64, stat of either kind.
  subroutine dgemm_plan_i64(transa, transb, m, n, k, plan, stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    integer(int64), intent(in) :: m, n, k
    type(tcgemm_plan), intent(out) :: plan
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(kind=c_char) :: c_transa, c_transb
    c_transa = transa      ! by-value char: see dgemm_host_core (tcgemm_host_dgemm.f90)
    c_transb = transb
    call finish(c_tcgemm_dgemm_plan(c_transa, c_transb, m, n, k, plan), 'tcgemm_dgemm_plan', stat, errmsg)
  end subroutine dgemm_plan_i64

  subroutine dgemm_plan_i32(transa, transb, m, n, k, plan, stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    integer(int32), intent(in) :: m, n, k
    type(tcgemm_plan), intent(out) :: plan
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call dgemm_plan_i64(transa, transb, int(m, int64), int(n, int64), int(k, int64), plan, stat, &
                        errmsg)
  end subroutine dgemm_plan_i32

  subroutine dgemm_plan_i32_stat64(transa, transb, m, n, k, plan, stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    integer(int32), intent(in) :: m, n, k
    type(tcgemm_plan), intent(out) :: plan
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call dgemm_plan_i64(transa, transb, int(m, int64), int(n, int64), int(k, int64), plan, &
                        status, errmsg)
    stat = status
  end subroutine dgemm_plan_i32_stat64

  subroutine dgemm_plan_i64_stat64(transa, transb, m, n, k, plan, stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    integer(int64), intent(in) :: m, n, k
    type(tcgemm_plan), intent(out) :: plan
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call dgemm_plan_i64(transa, transb, m, n, k, plan, status, errmsg)
    stat = status
  end subroutine dgemm_plan_i64_stat64

  !> The plan's summary line as a Fortran string.
  function tcgemm_plan_summary(plan) result(text)
    type(tcgemm_plan), intent(in) :: plan
    character(len=:), allocatable :: text
    integer :: i, n
    n = 0
    do i = 1, TCGEMM_PLAN_SUMMARY_LEN
      if (plan%summary(i) == c_null_char) exit
      n = i
    end do
    allocate(character(len=n) :: text)
    do i = 1, n
      text(i:i) = plan%summary(i)
    end do
  end function tcgemm_plan_summary

  ! =============================================================================================
  ! DGEMM on device matrices
  ! =============================================================================================

  !> Rows and columns of op(X) for a BLAS trans flag; `known` is false for a flag the library
  !> will reject (the C layer then reports it by name).
  subroutine op_shape(trans, x, rows, cols, known)
    character(len=1), intent(in) :: trans
    type(tcgemm_device_matrix), intent(in) :: x
    integer(int64), intent(out) :: rows, cols
    logical, intent(out) :: known

    known = .true.
    select case (trans)
    case ('N', 'n')
      rows = x%rows
      cols = x%cols
    case ('T', 't', 'C', 'c')
      rows = x%cols
      cols = x%rows
    case default
      rows = x%rows
      cols = x%cols
      known = .false.
    end select
  end subroutine op_shape

  !> m, n, k of C <- op(A) op(B) from device matrices; false (and a message) when they do not
  !> conform.
  logical function conforming(where, transa, transb, a, b, c, m, n, k, stat, errmsg)
    character(len=*), intent(in) :: where
    character(len=1), intent(in) :: transa, transb
    type(tcgemm_device_matrix), intent(in) :: a, b, c
    integer(int64), intent(out) :: m, n, k
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(int64) :: a_rows, a_cols, b_rows, b_cols
    logical :: a_known, b_known

    call op_shape(transa, a, a_rows, a_cols, a_known)
    call op_shape(transb, b, b_rows, b_cols, b_known)
    m = c%rows
    n = c%cols
    k = a_cols
    conforming = .true.
    if (.not. (a_known .and. b_known)) return   ! the library names the bad trans flag
    if (a_rows /= m .or. b_cols /= n .or. b_rows /= k) then
      conforming = .false.
      call fail_argument(where, 'op(A) is ' // itoa(a_rows) // 'x' // itoa(a_cols) // &
                         ', op(B) is ' // itoa(b_rows) // 'x' // itoa(b_cols) // ', C is ' // &
                         shape_text(c) // ': need op(A) m x k, op(B) k x n, C m x n', &
                         stat, errmsg)
    end if
  end function conforming

  !> Device matrices: C <- alpha op(A) op(B) + beta C, asynchronous on `stream`.
  subroutine dgemm_device(transa, transb, alpha, a, b, beta, c, stream, stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    real(real64), intent(in) :: alpha, beta
    type(tcgemm_device_matrix), intent(in) :: a, b
    type(tcgemm_device_matrix), intent(inout) :: c
    type(c_ptr), intent(in), optional :: stream
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(int64) :: m, n, k
    character(kind=c_char) :: c_transa, c_transb

    if (.not. conforming('tcgemm_dgemm', transa, transb, a, b, c, m, n, k, stat, errmsg)) return
    c_transa = transa      ! by-value char: see dgemm_host_core (tcgemm_host_dgemm.f90)
    c_transb = transb
    call finish(c_tcgemm_dgemm(c_transa, c_transb, m, n, k, alpha, a%ptr, a%ld, b%ptr, b%ld, &
                               beta, c%ptr, c%ld, stream_or_default(stream)), 'tcgemm_dgemm', &
                stat, errmsg)
  end subroutine dgemm_device

  !> Device matrices with an int64 stat (a caller compiled with -fdefault-integer-8). stat is
  !> not optional here: that is what tells this specific from dgemm_device.
  subroutine dgemm_device_stat64(transa, transb, alpha, a, b, beta, c, stream, stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    real(real64), intent(in) :: alpha, beta
    type(tcgemm_device_matrix), intent(in) :: a, b
    type(tcgemm_device_matrix), intent(inout) :: c
    type(c_ptr), intent(in), optional :: stream
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call dgemm_device(transa, transb, alpha, a, b, beta, c, stream, status, errmsg)
    stat = status
  end subroutine dgemm_device_stat64

  !> Device matrices with an explicit kernel configuration (family shared_a, shared_ab or
  !> sm90_mma; see tcgemm_default_config): C <- alpha op(A) op(B) + beta C.
  subroutine dgemm_config(config, transa, transb, alpha, a, b, beta, c, stream, stat, errmsg)
    type(tcgemm_config), intent(in) :: config
    character(len=1), intent(in) :: transa, transb
    real(real64), intent(in) :: alpha, beta
    type(tcgemm_device_matrix), intent(in) :: a, b
    type(tcgemm_device_matrix), intent(inout) :: c
    type(c_ptr), intent(in), optional :: stream
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(int64) :: m, n, k
    character(kind=c_char) :: c_transa, c_transb

    if (.not. conforming('tcgemm_dgemm_config', transa, transb, a, b, c, m, n, k, stat, &
                         errmsg)) return
    c_transa = transa      ! by-value char: see dgemm_host_core (tcgemm_host_dgemm.f90)
    c_transb = transb
    call finish(c_tcgemm_dgemm_config(config, c_transa, c_transb, m, n, k, alpha, a%ptr, a%ld, &
                                      b%ptr, b%ld, beta, c%ptr, c%ld, &
                                      stream_or_default(stream)), &
                'tcgemm_dgemm_config', stat, errmsg)
  end subroutine dgemm_config

  subroutine dgemm_config_stat64(config, transa, transb, alpha, a, b, beta, c, stream, stat, &
                                 errmsg)
    type(tcgemm_config), intent(in) :: config
    character(len=1), intent(in) :: transa, transb
    real(real64), intent(in) :: alpha, beta
    type(tcgemm_device_matrix), intent(in) :: a, b
    type(tcgemm_device_matrix), intent(inout) :: c
    type(c_ptr), intent(in), optional :: stream
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call dgemm_config(config, transa, transb, alpha, a, b, beta, c, stream, status, errmsg)
    stat = status
  end subroutine dgemm_config_stat64

end module tcgemm_device_dgemm
