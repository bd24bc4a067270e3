!> Module tcgemm: Fortran interface to the tcgemm tensor-core GEMM library.
!>
!> Two ways in:
!>   * host arrays (start here): `call tcgemm_dgemm('N', 'N', m, n, k, alpha, a, lda, b, ldb,
!>     beta, c, ldc)` on ordinary real(real64) arrays, exactly like BLAS dgemm. The library copies
!>     A, B (and C when beta /= 0) to the GPU, multiplies, copies C back and synchronizes, on a
!>     stream of its own (calls from several threads overlap). Its device buffers come from a
!>     pool the library keeps per GPU, shared by all threads and trimmed to a retain limit after
!>     each call (tcgemm_release_workspace empties it). Every call still moves
!>     (m*k + k*n + m*n [+ m*n]) * 8 bytes over PCIe/NVLink, so this path pays off only when
!>     2*m*n*k flops dwarf that traffic.
!>   * device matrices: type(tcgemm_device_matrix) holds a device pointer plus its shape and
!>     leading dimension. tcgemm_device_allocate (rows/cols, `source=` or `mold=`), tcgemm_copy
!>     (host -> device, device -> host) and tcgemm_device_deallocate manage it; tcgemm_dgemm and
!>     one call per kernel family of the reference design (tcgemm_dmma_single ... _shared_ab) run
!>     on it, asynchronously on an optional CUDA stream (type(c_ptr); absent = default stream).
!>
!> Errors: every procedure takes optional `stat` and `errmsg`, as ALLOCATE does. On failure
!> `stat` receives the tcgemm status (TCGEMM_ERROR_*, > 0) and `errmsg` the library's message,
!> which names the argument and the rule it broke; with `stat` absent a failure ends the program
!> with ERROR STOP and that message. On success `stat` is 0 and `errmsg` is left unchanged.
!>
!> Device memory is freed explicitly (tcgemm_device_deallocate), not by a final procedure:
!> a tcgemm_device_matrix is a plain value that may be copied (`b = a` copies the handle, not
!> the data), which a finalizer would turn into double frees; variables of the main program are
!> never finalized anyway; and freeing inside a finalizer at program end can run after the CUDA
!> context is gone. Deallocating a null (or zero-size) matrix is a no-op, so clean-up code may
!> call it unconditionally.
module tcgemm
  use, intrinsic :: iso_fortran_env, only: int32, int64, real64
  use, intrinsic :: iso_c_binding, only: c_int, c_int32_t, c_int64_t, c_double, c_char, &
                                         c_ptr, c_null_ptr, c_null_char, c_loc, c_f_pointer, &
                                         c_associated
  use tcgemm_c
  implicit none
  private

  ! ---- re-exported from tcgemm_c: constants and interoperable types --------------------------
  public :: TCGEMM_VERSION_MAJOR, TCGEMM_VERSION_MINOR, TCGEMM_VERSION_PATCH
  public :: TCGEMM_SUCCESS, TCGEMM_ERROR_INVALID_ARGUMENT, TCGEMM_ERROR_INVALID_CONFIG
  public :: TCGEMM_ERROR_NO_DEVICE, TCGEMM_ERROR_ARCHITECTURE, TCGEMM_ERROR_SHARED_MEMORY
  public :: TCGEMM_ERROR_CUDA, TCGEMM_ERROR_CONTEXT_LOST
  public :: TCGEMM_MAX_MATRIX_BYTES, TCGEMM_ARG_CONFIG
  public :: TCGEMM_FAMILY_AUTO, TCGEMM_FAMILY_SINGLE, TCGEMM_FAMILY_ROW
  public :: TCGEMM_FAMILY_WARP_PER_BLOCK, TCGEMM_FAMILY_BLOCK_TILE, TCGEMM_FAMILY_PEAK
  public :: TCGEMM_FAMILY_SHARED_A, TCGEMM_FAMILY_SHARED_AB, TCGEMM_FAMILY_SM90_MMA
  public :: TCGEMM_DEVICE_NAME_LEN
  public :: tcgemm_config, tcgemm_device_info

  ! ---- this module --------------------------------------------------------------------------
  public :: tcgemm_device_matrix
  public :: tcgemm_status_string, tcgemm_last_error, tcgemm_last_error_argument
  public :: tcgemm_version_string
  public :: tcgemm_device_info_get, tcgemm_device_name
  public :: tcgemm_default_config, tcgemm_config_validate, tcgemm_config_shared_memory_bytes
  public :: tcgemm_config_threads_per_block, tcgemm_config_check_device
  public :: tcgemm_dgemm_select_config
  public :: tcgemm_device_allocate, tcgemm_device_deallocate, tcgemm_device_allocated
  public :: tcgemm_copy, tcgemm_synchronize, tcgemm_release_workspace
  public :: tcgemm_dgemm, tcgemm_dgemm_config
  public :: tcgemm_dmma_single, tcgemm_dmma_row, tcgemm_dmma_warp_per_block
  public :: tcgemm_dmma_block_tile, tcgemm_dmma_peak, tcgemm_dmma_shared_a
  public :: tcgemm_dmma_shared_ab

  !> Bytes of one real(real64) element.
  integer(int64), parameter :: BYTES_PER_REAL64 = storage_size(1.0_real64) / 8
  !> Fragment shape of the FP64 WMMA examples (Examples 1, 2 and the peak benchmark).
  integer(int64), parameter :: WMMA_M = 8, WMMA_N = 8, WMMA_K = 4
  !> Most elements a device allocation may have: 2**59 doubles = 4 EiB, so that the size in
  !> bytes always fits an int64 (no device comes near it).
  integer(int64), parameter :: MAX_ELEMENTS = 2_int64**59
  !> True while the last failure on this thread came from this module's own checks (shapes,
  !> allocation state), made before any library call: tcgemm_last_error_argument() is 0 then.
  logical :: module_failed = .false.
  !$omp threadprivate(module_failed)
  !> `device` value meaning "the current CUDA device".
  integer(c_int32_t), parameter :: CURRENT_DEVICE = -1

  !> A column-major matrix in device memory: element (i, j) (1-based) lives at
  !> ptr + ((j-1)*ld + (i-1)) * 8 bytes. Rows rows+1..ld of each column are padding.
  !> The components are public so that device memory obtained elsewhere (CUDA Fortran,
  !> OpenACC `host_data use_device`, cudaMalloc through bind(C)) can be wrapped with the
  !> structure constructor; tcgemm_device_deallocate only frees what tcgemm_device_allocate
  !> allocated (it calls cudaFree on ptr).
  type :: tcgemm_device_matrix
    type(c_ptr) :: ptr = c_null_ptr   !< device address of element (1, 1)
    integer(int64) :: rows = 0        !< number of rows
    integer(int64) :: cols = 0        !< number of columns
    integer(int64) :: ld = 1          !< leading dimension in elements, >= max(1, rows)
  end type tcgemm_device_matrix

  !> Allocate a device matrix: `(d, rows, cols [, ld])`, or `(d, source=a [, ld])` (shape of
  !> a, contents copied) or `(d, mold=a [, ld])` (shape of a only).
  interface tcgemm_device_allocate
    module procedure device_allocate_i32, device_allocate_i64, device_allocate_like
  end interface tcgemm_device_allocate

  !> Copy between a host array and a device matrix, in the direction of the arguments:
  !> `call tcgemm_copy(a, a_d)` uploads, `call tcgemm_copy(c_d, c)` downloads.
  !> The host array is either rows x cols (the padding rows of the device matrix are written
  !> as zeros on upload and skipped on download) or ld x cols (copied verbatim, padding included).
  interface tcgemm_copy
    module procedure copy_to_device, copy_to_host
  end interface tcgemm_copy

  !> C <- alpha op(A) op(B) + beta C.
  !>  * host arrays, BLAS argument list (sizes all default integer or all int64; arrays of rank
  !>    2, `a(lda,*)`, or rank 1):
  !>      `call tcgemm_dgemm(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc &
  !>                         [, stat, errmsg])`
  !>  * device matrices (m, n, k and leading dimensions taken from the matrices):
  !>      `call tcgemm_dgemm(transa, transb, alpha, a_d, b_d, beta, c_d [, stream, stat, errmsg])`
  interface tcgemm_dgemm
    module procedure dgemm_host_i32_r2, dgemm_host_i64_r2, dgemm_host_i32_r1, dgemm_host_i64_r1
    module procedure dgemm_device
  end interface tcgemm_dgemm

contains

  ! =============================================================================================
  ! strings and error reporting
  ! =============================================================================================

  !> Copy a NUL-terminated C string owned by the library into a Fortran string.
  function fortran_string(str) result(text)
    type(c_ptr), intent(in) :: str
    character(len=:), allocatable :: text
    character(kind=c_char), pointer :: chars(:)
    integer :: length, i

    if (.not. c_associated(str)) then
      text = ''
      return
    end if
    length = int(c_strlen(str))
    call c_f_pointer(str, chars, [length])
    allocate(character(len=length) :: text)
    do i = 1, length
      text(i:i) = chars(i)
    end do
  end function fortran_string

  !> Name of a status code, e.g. "invalid argument".
  function tcgemm_status_string(status) result(text)
    integer, intent(in) :: status
    character(len=:), allocatable :: text
    text = fortran_string(c_tcgemm_status_string(int(status, c_int)))
  end function tcgemm_status_string

  !> Message of the last failed tcgemm call on this thread ("" after a successful call).
  function tcgemm_last_error() result(text)
    character(len=:), allocatable :: text
    text = fortran_string(c_tcgemm_last_error())
  end function tcgemm_last_error

  !> The argument the last failed tcgemm call on this thread blamed, as a number (0: none).
  !> For tcgemm_dgemm on host arrays (the BLAS form) it is reference DGEMM's numbering, as
  !> XERBLA's INFO: 1 transa, 2 transb, 3 m, 4 n, 5 k, 6 alpha, 7 a, 8 lda, 9 b, 10 ldb,
  !> 11 beta, 12 c, 13 ldc. Calls on device matrices report the position the library gives
  !> for the C entry point behind them (see tcgemm.h); this module's own checks (shapes,
  !> allocation state) blame no numbered argument and give 0.
  function tcgemm_last_error_argument() result(argument)
    integer :: argument
    argument = 0
    if (.not. module_failed) argument = int(c_tcgemm_last_error_argument())
  end function tcgemm_last_error_argument

  !> Version of the library linked at run time, e.g. "0.1.0".
  function tcgemm_version_string() result(text)
    character(len=:), allocatable :: text
    text = fortran_string(c_tcgemm_version_string())
  end function tcgemm_version_string

  !> Deliver an error like ALLOCATE does: to stat/errmsg when stat is present, else ERROR STOP.
  subroutine report(status, message, stat, errmsg)
    integer, intent(in) :: status
    character(len=*), intent(in) :: message
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg

    if (present(stat)) stat = status
    if (status == TCGEMM_SUCCESS) return
    if (present(errmsg)) errmsg = message
    if (.not. present(stat)) error stop message
  end subroutine report

  !> Finish a wrapper after a C call: on failure build "<where>: <status>: <library message>".
  !> The library's message is read first, before any other call can replace it.
  subroutine finish(status, where, stat, errmsg)
    integer(c_int), intent(in) :: status
    character(len=*), intent(in) :: where
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=:), allocatable :: detail

    module_failed = .false.
    if (status == TCGEMM_SUCCESS) then
      call report(TCGEMM_SUCCESS, '', stat, errmsg)
      return
    end if
    detail = tcgemm_last_error()
    if (len(detail) == 0) detail = '(no message)'
    call report(int(status), 'tcgemm: ' // where // ': ' // tcgemm_status_string(int(status)) &
                // ': ' // detail, stat, errmsg)
  end subroutine finish

  !> Report an argument error found by this module (shapes of device matrices, allocation state).
  subroutine fail_argument(where, detail, stat, errmsg)
    character(len=*), intent(in) :: where, detail
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    module_failed = .true.
    call report(int(TCGEMM_ERROR_INVALID_ARGUMENT), 'tcgemm: ' // where // ': ' // &
                tcgemm_status_string(int(TCGEMM_ERROR_INVALID_ARGUMENT)) // ': ' // detail, &
                stat, errmsg)
  end subroutine fail_argument

  !> Decimal text of an integer, for messages.
  pure function itoa(value) result(text)
    integer(int64), intent(in) :: value
    character(len=:), allocatable :: text
    character(len=24) :: buffer
    write (buffer, '(i0)') value
    text = trim(buffer)
  end function itoa

  !> "<rows>x<cols>" of a device matrix, for messages.
  function shape_text(d) result(text)
    type(tcgemm_device_matrix), intent(in) :: d
    character(len=:), allocatable :: text
    text = itoa(d%rows) // 'x' // itoa(d%cols)
  end function shape_text

  !> The stream argument of a launch: the caller's, or the default stream (NULL).
  function stream_or_default(stream) result(s)
    type(c_ptr), intent(in), optional :: stream
    type(c_ptr) :: s
    s = c_null_ptr
    if (present(stream)) s = stream
  end function stream_or_default

  ! =============================================================================================
  ! device information and configurations
  ! =============================================================================================

  !> Properties of a CUDA device (`device` absent or < 0: the current device). On a machine
  !> without a GPU stat is TCGEMM_ERROR_NO_DEVICE.
  subroutine tcgemm_device_info_get(info, device, stat, errmsg)
    type(tcgemm_device_info), intent(out) :: info
    integer, intent(in), optional :: device
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int32_t) :: which

    which = CURRENT_DEVICE
    if (present(device)) which = int(device, c_int32_t)
    call finish(c_tcgemm_device_info_get(which, info), 'tcgemm_device_info_get', stat, errmsg)
  end subroutine tcgemm_device_info_get

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
  subroutine tcgemm_default_config(family, config, stat, errmsg)
    integer, intent(in) :: family
    type(tcgemm_config), intent(out) :: config
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call finish(c_tcgemm_default_config(int(family, c_int32_t), config), &
                'tcgemm_default_config', stat, errmsg)
  end subroutine tcgemm_default_config

  !> Check every rule of the configuration's family that does not depend on the device.
  subroutine tcgemm_config_validate(config, stat, errmsg)
    type(tcgemm_config), intent(in) :: config
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call finish(c_tcgemm_config_validate(config), 'tcgemm_config_validate', stat, errmsg)
  end subroutine tcgemm_config_validate

  !> Shared memory (dynamic + static, bytes) one thread block of `config` needs.
  subroutine tcgemm_config_shared_memory_bytes(config, bytes, stat, errmsg)
    type(tcgemm_config), intent(in) :: config
    integer(int64), intent(out) :: bytes
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int64_t) :: c_bytes

    c_bytes = 0
    call finish(c_tcgemm_config_shared_memory_bytes(config, c_bytes), &
                'tcgemm_config_shared_memory_bytes', stat, errmsg)
    bytes = int(c_bytes, int64)
  end subroutine tcgemm_config_shared_memory_bytes

  !> Threads per block of `config`.
  subroutine tcgemm_config_threads_per_block(config, threads, stat, errmsg)
    type(tcgemm_config), intent(in) :: config
    integer, intent(out) :: threads
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int32_t) :: c_threads

    c_threads = 0
    call finish(c_tcgemm_config_threads_per_block(config, c_threads), &
                'tcgemm_config_threads_per_block', stat, errmsg)
    threads = int(c_threads)
  end subroutine tcgemm_config_threads_per_block

  !> Full check of `config` against a device (validation, architecture, shared-memory limit);
  !> `device` absent or < 0: the current device.
  subroutine tcgemm_config_check_device(config, device, stat, errmsg)
    type(tcgemm_config), intent(in) :: config
    integer, intent(in), optional :: device
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int32_t) :: which

    which = CURRENT_DEVICE
    if (present(device)) which = int(device, c_int32_t)
    call finish(c_tcgemm_config_check_device(config, which), 'tcgemm_config_check_device', &
                stat, errmsg)
  end subroutine tcgemm_config_check_device

  !> The configuration tcgemm_dgemm uses on a device (family AUTO resolved).
  subroutine tcgemm_dgemm_select_config(config, device, stat, errmsg)
    type(tcgemm_config), intent(out) :: config
    integer, intent(in), optional :: device
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int32_t) :: which

    which = CURRENT_DEVICE
    if (present(device)) which = int(device, c_int32_t)
    call finish(c_tcgemm_dgemm_select_config(which, config), 'tcgemm_dgemm_select_config', &
                stat, errmsg)
  end subroutine tcgemm_dgemm_select_config

  ! =============================================================================================
  ! device matrices: allocation, copies, synchronization
  ! =============================================================================================

  !> True when `d` holds device memory.
  logical function tcgemm_device_allocated(d)
    type(tcgemm_device_matrix), intent(in) :: d
    tcgemm_device_allocated = c_associated(d%ptr)
  end function tcgemm_device_allocated

  !> Bytes of device memory behind a rows x cols matrix with leading dimension ld: whole
  !> columns of ld elements, none at all for an empty matrix.
  pure integer(int64) function storage_bytes(rows, cols, ld)
    integer(int64), intent(in) :: rows, cols, ld
    storage_bytes = 0
    if (rows > 0 .and. cols > 0) storage_bytes = ld * cols * BYTES_PER_REAL64
  end function storage_bytes

  !> Allocate a rows x cols device matrix with leading dimension ld (default rows); contents
  !> undefined. Zero-size matrices get a null pointer and need no GPU.
  subroutine allocate_shape(d, rows, cols, ld, stat, errmsg)
    type(tcgemm_device_matrix), intent(inout) :: d
    integer(int64), intent(in) :: rows, cols, ld
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: where = 'tcgemm_device_allocate'
    type(c_ptr) :: ptr
    integer(int64) :: bytes

    if (c_associated(d%ptr)) then
      call fail_argument(where, 'the device matrix is already allocated ('// shape_text(d) // &
                         '); deallocate it first', stat, errmsg)
      return
    end if
    if (rows < 0 .or. cols < 0) then
      call fail_argument(where, 'rows = ' // itoa(rows) // ' and cols = ' // itoa(cols) // &
                         ' must be >= 0', stat, errmsg)
      return
    end if
    if (ld < max(1_int64, rows)) then
      call fail_argument(where, 'ld = ' // itoa(ld) // ' must be >= max(1, rows) = ' // &
                         itoa(max(1_int64, rows)), stat, errmsg)
      return
    end if
    if (cols > 0 .and. ld > MAX_ELEMENTS / cols) then
      call fail_argument(where, 'ld * cols * 8 bytes overflows a 64-bit integer', stat, errmsg)
      return
    end if

    ptr = c_null_ptr
    bytes = storage_bytes(rows, cols, ld)
    if (bytes > 0) then
      call finish(c_tcgemm_malloc(ptr, int(bytes, c_int64_t)), where, stat, errmsg)
      if (.not. c_associated(ptr)) return      ! failed and reported (stat present)
    else
      call report(TCGEMM_SUCCESS, '', stat, errmsg)
    end if
    d = tcgemm_device_matrix(ptr=ptr, rows=rows, cols=cols, ld=ld)
  end subroutine allocate_shape

  !> `call tcgemm_device_allocate(d, rows, cols [, ld, stat, errmsg])` with default integers.
  subroutine device_allocate_i32(d, rows, cols, ld, stat, errmsg)
    type(tcgemm_device_matrix), intent(inout) :: d
    integer(int32), intent(in) :: rows, cols
    integer(int32), intent(in), optional :: ld
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(int64) :: lead

    lead = max(1_int64, int(rows, int64))
    if (present(ld)) lead = int(ld, int64)
    call allocate_shape(d, int(rows, int64), int(cols, int64), lead, stat, errmsg)
  end subroutine device_allocate_i32

  !> `call tcgemm_device_allocate(d, rows, cols [, ld, stat, errmsg])` with int64 sizes.
  subroutine device_allocate_i64(d, rows, cols, ld, stat, errmsg)
    type(tcgemm_device_matrix), intent(inout) :: d
    integer(int64), intent(in) :: rows, cols
    integer(int64), intent(in), optional :: ld
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(int64) :: lead

    lead = max(1_int64, rows)
    if (present(ld)) lead = ld
    call allocate_shape(d, rows, cols, lead, stat, errmsg)
  end subroutine device_allocate_i64

  !> `call tcgemm_device_allocate(d, source=a [, ld])` (shape of a, contents copied) or
  !> `call tcgemm_device_allocate(d, mold=a [, ld])` (shape of a only). Exactly one of
  !> source and mold must be present.
  subroutine device_allocate_like(d, source, mold, ld, stat, errmsg)
    type(tcgemm_device_matrix), intent(inout) :: d
    real(real64), intent(in), optional :: source(:, :)
    real(real64), intent(in), optional :: mold(:, :)
    integer, intent(in), optional :: ld
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: where = 'tcgemm_device_allocate'
    integer(int64) :: rows, cols, lead
    integer :: status, cleanup_status
    character(len=1024) :: message

    if (present(source) .eqv. present(mold)) then
      call fail_argument(where, 'give exactly one of source= and mold=', stat, errmsg)
      return
    end if
    if (present(source)) then
      rows = size(source, 1, int64)
      cols = size(source, 2, int64)
    else
      rows = size(mold, 1, int64)
      cols = size(mold, 2, int64)
    end if
    lead = max(1_int64, rows)
    if (present(ld)) lead = int(ld, int64)

    ! Collect the outcome locally so that a failed upload can undo the allocation before the
    ! error is delivered (and, with stat absent, before ERROR STOP).
    message = ''
    call allocate_shape(d, rows, cols, lead, status, message)
    if (status == TCGEMM_SUCCESS .and. present(source)) then
      call copy_to_device(source, d, status, message)
      if (status /= TCGEMM_SUCCESS) call tcgemm_device_deallocate(d, cleanup_status)
    end if
    call report(status, trim(message), stat, errmsg)
  end subroutine device_allocate_like

  !> Free the device memory of `d` and reset it to an empty matrix. A no-op for a matrix
  !> without memory. Only for memory from tcgemm_device_allocate.
  subroutine tcgemm_device_deallocate(d, stat, errmsg)
    type(tcgemm_device_matrix), intent(inout) :: d
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int) :: status

    status = TCGEMM_SUCCESS
    if (c_associated(d%ptr)) status = c_tcgemm_free(d%ptr)
    d = tcgemm_device_matrix()
    call finish(status, 'tcgemm_device_deallocate', stat, errmsg)
  end subroutine tcgemm_device_deallocate

  !> Whether a host array's shape fits a device matrix: 1 = rows x cols (packed),
  !> 2 = ld x cols (verbatim), 0 = neither.
  integer function host_layout(d, host_rows, host_cols)
    type(tcgemm_device_matrix), intent(in) :: d
    integer(int64), intent(in) :: host_rows, host_cols
    host_layout = 0
    if (host_cols /= d%cols) return
    if (host_rows == d%ld) then
      host_layout = 2
    else if (host_rows == d%rows) then
      host_layout = 1
    end if
  end function host_layout

  !> Upload: `call tcgemm_copy(host_array, device_matrix)`. Synchronous.
  subroutine copy_to_device(src, dst, stat, errmsg)
    real(real64), intent(in), contiguous, target :: src(:, :)
    type(tcgemm_device_matrix), intent(in) :: dst
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: where = 'tcgemm_copy (host to device)'
    real(real64), allocatable, target :: staged(:, :)
    integer(int64) :: bytes

    bytes = storage_bytes(dst%rows, dst%cols, dst%ld)
    select case (host_layout(dst, size(src, 1, int64), size(src, 2, int64)))
    case (0)
      call fail_argument(where, 'the host array is ' // itoa(size(src, 1, int64)) // 'x' // &
                         itoa(size(src, 2, int64)) // ', the device matrix ' // &
                         shape_text(dst) // ' with ld = ' // itoa(dst%ld), stat, errmsg)
    case (2)
      if (bytes == 0) then
        call report(TCGEMM_SUCCESS, '', stat, errmsg)
      else
        call finish(c_tcgemm_memcpy_to_device(dst%ptr, c_loc(src), int(bytes, c_int64_t)), &
                    where, stat, errmsg)
      end if
    case default
      if (bytes == 0) then
        call report(TCGEMM_SUCCESS, '', stat, errmsg)
        return
      end if
      ! One transfer of the whole ld x cols block beats one per column; the padding rows are
      ! sent as zeros so that the device contents are fully defined.
      allocate(staged(dst%ld, dst%cols))
      staged = 0.0_real64
      staged(1:dst%rows, :) = src
      call finish(c_tcgemm_memcpy_to_device(dst%ptr, c_loc(staged), int(bytes, c_int64_t)), &
                  where, stat, errmsg)
    end select
  end subroutine copy_to_device

  !> Download: `call tcgemm_copy(device_matrix, host_array)`. Synchronous. On error the host
  !> array is unchanged.
  subroutine copy_to_host(src, dst, stat, errmsg)
    type(tcgemm_device_matrix), intent(in) :: src
    real(real64), intent(inout), contiguous, target :: dst(:, :)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: where = 'tcgemm_copy (device to host)'
    real(real64), allocatable, target :: staged(:, :)
    integer(int64) :: bytes
    integer :: status

    bytes = storage_bytes(src%rows, src%cols, src%ld)
    select case (host_layout(src, size(dst, 1, int64), size(dst, 2, int64)))
    case (0)
      call fail_argument(where, 'the host array is ' // itoa(size(dst, 1, int64)) // 'x' // &
                         itoa(size(dst, 2, int64)) // ', the device matrix ' // &
                         shape_text(src) // ' with ld = ' // itoa(src%ld), stat, errmsg)
    case (2)
      if (bytes == 0) then
        call report(TCGEMM_SUCCESS, '', stat, errmsg)
      else
        call finish(c_tcgemm_memcpy_to_host(c_loc(dst), src%ptr, int(bytes, c_int64_t)), &
                    where, stat, errmsg)
      end if
    case default
      if (bytes == 0) then
        call report(TCGEMM_SUCCESS, '', stat, errmsg)
        return
      end if
      allocate(staged(src%ld, src%cols))
      status = int(c_tcgemm_memcpy_to_host(c_loc(staged), src%ptr, int(bytes, c_int64_t)))
      if (status == TCGEMM_SUCCESS) dst = staged(1:src%rows, :)
      call finish(int(status, c_int), where, stat, errmsg)
    end select
  end subroutine copy_to_host

  !> Wait until all work queued on `stream` (absent: the default stream) has finished. Errors
  !> of earlier asynchronous launches surface here.
  subroutine tcgemm_synchronize(stream, stat, errmsg)
    type(c_ptr), intent(in), optional :: stream
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call finish(c_tcgemm_synchronize(stream_or_default(stream)), 'tcgemm_synchronize', &
                stat, errmsg)
  end subroutine tcgemm_synchronize

  !> Free the per-thread device buffers used by host-array tcgemm_dgemm calls.
  subroutine tcgemm_release_workspace(stat, errmsg)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call finish(c_tcgemm_release_workspace(), 'tcgemm_release_workspace', stat, errmsg)
  end subroutine tcgemm_release_workspace

  ! =============================================================================================
  ! DGEMM
  ! =============================================================================================

  !> Host-array DGEMM with 64-bit sizes on element sequences (all host specifics end here).
  subroutine dgemm_host_core(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, &
                             stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    integer(int64), intent(in) :: m, n, k, lda, ldb, ldc
    real(real64), intent(in) :: alpha, beta
    real(real64), intent(in) :: a(*), b(*)
    real(real64), intent(inout) :: c(*)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(kind=c_char) :: c_transa, c_transb

    ! Copy the flags into local c_char variables before passing them by value: gfortran 12
    ! passes a character dummy argument handed on to a `character(kind=c_char), value` dummy
    ! as (part of) its address instead of its value. tests/fortran/test_errors_cpu catches it.
    c_transa = transa
    c_transb = transb
    call finish(c_tcgemm_dgemm_host(c_transa, c_transb, m, n, k, alpha, a, lda, b, ldb, beta, &
                                    c, ldc), 'tcgemm_dgemm', stat, errmsg)
  end subroutine dgemm_host_core

  !> Host arrays a(lda,*), b(ldb,*), c(ldc,*), default-integer sizes (BLAS dgemm).
  subroutine dgemm_host_i32_r2(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, &
                               stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    integer(int32), intent(in) :: m, n, k, lda, ldb, ldc
    real(real64), intent(in) :: alpha, beta
    real(real64), intent(in) :: a(lda, *), b(ldb, *)
    real(real64), intent(inout) :: c(ldc, *)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call dgemm_host_core(transa, transb, int(m, int64), int(n, int64), int(k, int64), alpha, &
                         a, int(lda, int64), b, int(ldb, int64), beta, c, int(ldc, int64), &
                         stat, errmsg)
  end subroutine dgemm_host_i32_r2

  !> Host arrays a(lda,*), b(ldb,*), c(ldc,*), int64 sizes.
  subroutine dgemm_host_i64_r2(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, &
                               stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    integer(int64), intent(in) :: m, n, k, lda, ldb, ldc
    real(real64), intent(in) :: alpha, beta
    real(real64), intent(in) :: a(lda, *), b(ldb, *)
    real(real64), intent(inout) :: c(ldc, *)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call dgemm_host_core(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, &
                         stat, errmsg)
  end subroutine dgemm_host_i64_r2

  !> Host arrays stored as rank-1 element sequences, default-integer sizes.
  subroutine dgemm_host_i32_r1(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, &
                               stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    integer(int32), intent(in) :: m, n, k, lda, ldb, ldc
    real(real64), intent(in) :: alpha, beta
    real(real64), intent(in) :: a(*), b(*)
    real(real64), intent(inout) :: c(*)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call dgemm_host_core(transa, transb, int(m, int64), int(n, int64), int(k, int64), alpha, &
                         a, int(lda, int64), b, int(ldb, int64), beta, c, int(ldc, int64), &
                         stat, errmsg)
  end subroutine dgemm_host_i32_r1

  !> Host arrays stored as rank-1 element sequences, int64 sizes.
  subroutine dgemm_host_i64_r1(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, &
                               stat, errmsg)
    character(len=1), intent(in) :: transa, transb
    integer(int64), intent(in) :: m, n, k, lda, ldb, ldc
    real(real64), intent(in) :: alpha, beta
    real(real64), intent(in) :: a(*), b(*)
    real(real64), intent(inout) :: c(*)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call dgemm_host_core(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, &
                         stat, errmsg)
  end subroutine dgemm_host_i64_r1

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
    c_transa = transa      ! by-value char: see dgemm_host_core
    c_transb = transb
    call finish(c_tcgemm_dgemm(c_transa, c_transb, m, n, k, alpha, a%ptr, a%ld, b%ptr, b%ld, &
                               beta, c%ptr, c%ld, stream_or_default(stream)), 'tcgemm_dgemm', &
                stat, errmsg)
  end subroutine dgemm_device

  !> Device matrices with an explicit kernel configuration (family shared_a, shared_ab or
  !> sm90_mma; see tcgemm_default_config): C <- alpha op(A) op(B) + beta C.
  subroutine tcgemm_dgemm_config(config, transa, transb, alpha, a, b, beta, c, stream, stat, &
                                 errmsg)
    type(tcgemm_config), intent(in) :: config
    character(len=1), intent(in) :: transa, transb
    real(real64), intent(in) :: alpha, beta
    type(tcgemm_device_matrix), intent(in) :: a, b
    type(tcgemm_device_matrix), intent(inout) :: c
    type(c_ptr), intent(in), optional :: stream
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(int64) :: m, n, k
    character(kind=c_char) :: c_transa, c_transb

    if (.not. conforming('tcgemm_dgemm_config', transa, transb, a, b, c, m, n, k, stat, &
                         errmsg)) return
    c_transa = transa      ! by-value char: see dgemm_host_core
    c_transb = transb
    call finish(c_tcgemm_dgemm_config(config, c_transa, c_transb, m, n, k, alpha, a%ptr, a%ld, &
                                      b%ptr, b%ld, beta, c%ptr, c%ld, &
                                      stream_or_default(stream)), &
                'tcgemm_dgemm_config', stat, errmsg)
  end subroutine tcgemm_dgemm_config

  ! =============================================================================================
  ! kernel families of the reference design: C = A B on device matrices
  ! =============================================================================================

  !> True when `x` is exactly rows x cols; otherwise reports which operand is wrong.
  logical function has_shape(where, operand, x, rows, cols, stat, errmsg)
    character(len=*), intent(in) :: where, operand
    type(tcgemm_device_matrix), intent(in) :: x
    integer(int64), intent(in) :: rows, cols
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg

    has_shape = x%rows == rows .and. x%cols == cols
    if (.not. has_shape) call fail_argument(where, operand // ' is ' // shape_text(x) // &
                                            ', must be ' // itoa(rows) // 'x' // itoa(cols), &
                                            stat, errmsg)
  end function has_shape

  !> Example 1: C(8x8) = A(8x4) B(4x8), one warp, one WMMA tile.
  subroutine tcgemm_dmma_single(a, b, c, stream, stat, errmsg)
    type(tcgemm_device_matrix), intent(in) :: a, b
    type(tcgemm_device_matrix), intent(inout) :: c
    type(c_ptr), intent(in), optional :: stream
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: where = 'tcgemm_dmma_single'

    if (.not. has_shape(where, 'A', a, WMMA_M, WMMA_K, stat, errmsg)) return
    if (.not. has_shape(where, 'B', b, WMMA_K, WMMA_N, stat, errmsg)) return
    if (.not. has_shape(where, 'C', c, WMMA_M, WMMA_N, stat, errmsg)) return
    call finish(c_tcgemm_dmma_single(a%ptr, a%ld, b%ptr, b%ld, c%ptr, c%ld, &
                                     stream_or_default(stream)), where, stat, errmsg)
  end subroutine tcgemm_dmma_single

  !> Example 2: C(8x8) = A(8xK) B(Kx8), one warp looping over K.
  subroutine tcgemm_dmma_row(a, b, c, stream, stat, errmsg)
    type(tcgemm_device_matrix), intent(in) :: a, b
    type(tcgemm_device_matrix), intent(inout) :: c
    type(c_ptr), intent(in), optional :: stream
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: where = 'tcgemm_dmma_row'

    if (.not. has_shape(where, 'A', a, WMMA_M, a%cols, stat, errmsg)) return
    if (.not. has_shape(where, 'B', b, a%cols, WMMA_N, stat, errmsg)) return
    if (.not. has_shape(where, 'C', c, WMMA_M, WMMA_N, stat, errmsg)) return
    call finish(c_tcgemm_dmma_row(a%cols, a%ptr, a%ld, b%ptr, b%ld, c%ptr, c%ld, &
                                  stream_or_default(stream)), where, stat, errmsg)
  end subroutine tcgemm_dmma_row

  !> Example 3: C = A B with one one-warp block per 8x8 tile of C; any sizes.
  subroutine tcgemm_dmma_warp_per_block(a, b, c, stream, stat, errmsg)
    type(tcgemm_device_matrix), intent(in) :: a, b
    type(tcgemm_device_matrix), intent(inout) :: c
    type(c_ptr), intent(in), optional :: stream
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(int64) :: m, n, k

    if (.not. conforming('tcgemm_dmma_warp_per_block', 'N', 'N', a, b, c, m, n, k, stat, &
                         errmsg)) return
    call finish(c_tcgemm_dmma_warp_per_block(m, n, k, a%ptr, a%ld, b%ptr, b%ld, c%ptr, c%ld, &
                                             stream_or_default(stream)), &
                'tcgemm_dmma_warp_per_block', stat, errmsg)
  end subroutine tcgemm_dmma_warp_per_block

  !> Example 4: C = A B with a tile_m x tile_n C tile per multi-warp block (multiples of 8).
  subroutine tcgemm_dmma_block_tile(a, b, c, tile_m, tile_n, stream, stat, errmsg)
    type(tcgemm_device_matrix), intent(in) :: a, b
    type(tcgemm_device_matrix), intent(inout) :: c
    integer, intent(in) :: tile_m, tile_n
    type(c_ptr), intent(in), optional :: stream
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(int64) :: m, n, k

    if (.not. conforming('tcgemm_dmma_block_tile', 'N', 'N', a, b, c, m, n, k, stat, &
                         errmsg)) return
    call finish(c_tcgemm_dmma_block_tile(m, n, k, int(tile_m, c_int32_t), &
                                         int(tile_n, c_int32_t), a%ptr, a%ld, b%ptr, b%ld, &
                                         c%ptr, c%ld, stream_or_default(stream)), &
                'tcgemm_dmma_block_tile', stat, errmsg)
  end subroutine tcgemm_dmma_block_tile

  !> Figure 1 benchmark: every 8x8 tile of C (any m x n) receives niter * A(8x4) B(4x8),
  !> accumulated by niter mma_sync calls from one load of A and B.
  subroutine tcgemm_dmma_peak(a, b, c, niter, stream, stat, errmsg)
    type(tcgemm_device_matrix), intent(in) :: a, b
    type(tcgemm_device_matrix), intent(inout) :: c
    integer, intent(in) :: niter
    type(c_ptr), intent(in), optional :: stream
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: where = 'tcgemm_dmma_peak'

    if (.not. has_shape(where, 'A', a, WMMA_M, WMMA_K, stat, errmsg)) return
    if (.not. has_shape(where, 'B', b, WMMA_K, WMMA_N, stat, errmsg)) return
    call finish(c_tcgemm_dmma_peak(c%rows, c%cols, int(niter, c_int32_t), a%ptr, a%ld, b%ptr, &
                                   b%ld, c%ptr, c%ld, stream_or_default(stream)), &
                where, stat, errmsg)
  end subroutine tcgemm_dmma_peak

  !> Example 5: C = A B with a tile_m x 4 A tile in shared memory, leading dimension
  !> tile_m + pad_a (pad_a a multiple of 2 doubles: WMMA's 16-byte rule).
  subroutine tcgemm_dmma_shared_a(a, b, c, tile_m, pad_a, stream, stat, errmsg)
    type(tcgemm_device_matrix), intent(in) :: a, b
    type(tcgemm_device_matrix), intent(inout) :: c
    integer, intent(in) :: tile_m, pad_a
    type(c_ptr), intent(in), optional :: stream
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(int64) :: m, n, k

    if (.not. conforming('tcgemm_dmma_shared_a', 'N', 'N', a, b, c, m, n, k, stat, errmsg)) &
      return
    call finish(c_tcgemm_dmma_shared_a(m, n, k, int(tile_m, c_int32_t), int(pad_a, c_int32_t), &
                                       a%ptr, a%ld, b%ptr, b%ld, c%ptr, c%ld, &
                                       stream_or_default(stream)), &
                'tcgemm_dmma_shared_a', stat, errmsg)
  end subroutine tcgemm_dmma_shared_a

  !> Example 6: C = A B with tile x tile_k A and tile_k x tile B tiles in dynamic shared memory,
  !> paddings pad_a and pad_b on their leading dimensions.
  subroutine tcgemm_dmma_shared_ab(a, b, c, tile, tile_k, pad_a, pad_b, stream, stat, errmsg)
    type(tcgemm_device_matrix), intent(in) :: a, b
    type(tcgemm_device_matrix), intent(inout) :: c
    integer, intent(in) :: tile, tile_k, pad_a, pad_b
    type(c_ptr), intent(in), optional :: stream
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(int64) :: m, n, k

    if (.not. conforming('tcgemm_dmma_shared_ab', 'N', 'N', a, b, c, m, n, k, stat, errmsg)) &
      return
    call finish(c_tcgemm_dmma_shared_ab(m, n, k, int(tile, c_int32_t), int(tile_k, c_int32_t), &
                                        int(pad_a, c_int32_t), int(pad_b, c_int32_t), a%ptr, &
                                        a%ld, b%ptr, b%ld, c%ptr, c%ld, &
                                        stream_or_default(stream)), &
                'tcgemm_dmma_shared_ab', stat, errmsg)
  end subroutine tcgemm_dmma_shared_ab

end module tcgemm
