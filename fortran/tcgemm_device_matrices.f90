!> Part of module tcgemm (fortran/tcgemm.f90 lists the parts): device matrices.
!>
!> type(tcgemm_device_matrix) and what manages it: tcgemm_device_allocate, tcgemm_copy,
!> tcgemm_device_deallocate, tcgemm_device_allocated, plus tcgemm_synchronize. Views of a part of
!> a matrix are in tcgemm_device_views. Programs `use tcgemm`, not this module.
!>
!> The shape, leading dimension and address arithmetic take the element size as an argument: the
!> real(real32) matrices (tcgemm_device_real32) keep their layout in a tcgemm_device_matrix (their
!> parent component) and share these helpers. The copies and source=/mold= allocation, which
!> need the host array's kind, are written once in tcgemm_device_copy.inc and included here
!> (real64) and there (real32). Public to the other parts only: shape_text, stream_or_default,
!> offset_address, BYTES_PER_REAL64, and the layout helpers the include file uses.
!>
!> Each generic has a specific per kind of `stat` (and of the sizes and `ld`), so that a caller
!> built with -fdefault-integer-8 (int64 default integers) gets its own: the `_stat64` specifics
!> take stat as a required argument, which is what tells them from the others (a call without
!> stat goes to those), and end in the default-integer specific or its core.
module tcgemm_device_matrices
  use, intrinsic :: iso_fortran_env, only: int32, int64, real64
  use, intrinsic :: iso_c_binding, only: c_int, c_int64_t, c_intptr_t, c_ptr, c_null_ptr, &
                                         c_loc, c_associated
  use tcgemm_c, only: TCGEMM_SUCCESS, c_tcgemm_malloc, c_tcgemm_free, &
                      c_tcgemm_memcpy_to_device, c_tcgemm_memcpy_to_host, c_tcgemm_synchronize
  use tcgemm_errors, only: report, finish, fail_argument, itoa
  implicit none
  private

  !> The host kind and element size of the copies included from tcgemm_device_copy.inc.
  integer, parameter :: wp = real64
  integer(int64), parameter :: ELEMENT_BYTES = storage_size(1.0_wp) / 8

  public :: tcgemm_device_matrix
  public :: tcgemm_device_allocate, tcgemm_device_deallocate, tcgemm_device_allocated
  public :: tcgemm_copy, tcgemm_synchronize
  public :: shape_text, stream_or_default, offset_address, BYTES_PER_REAL64
  public :: device_allocated, allocate_shape, device_deallocate, storage_bytes, rows_only, &
            column_address, copy_layout, PACKED, VERBATIM

  !> Bytes of one real(real64) element.
  integer(int64), parameter :: BYTES_PER_REAL64 = storage_size(1.0_real64) / 8
  !> Most elements a device allocation may have: 2**59 doubles = 4 EiB, so that the size in
  !> bytes always fits an int64 (no device comes near it); the same bound serves real32.
  integer(int64), parameter :: MAX_ELEMENTS = 2_int64**59
  !> How a host array is laid out against a device matrix (see copy_layout).
  integer, parameter :: NOTHING_TO_COPY = 0, PACKED = 1, VERBATIM = 2

  !> A column-major matrix in device memory: element (i, j) (1-based) lives at
  !> ptr + ((j-1)*ld + (i-1)) * 8 bytes. Rows rows+1..ld of each column are padding.
  !> The components are public so that device memory obtained elsewhere (CUDA Fortran,
  !> OpenACC `host_data use_device`, cudaMalloc through bind(C)) can be wrapped with the
  !> structure constructor; tcgemm_device_deallocate only frees what tcgemm_device_allocate
  !> allocated (it calls cudaFree on ptr).
  !> is_view marks a view (tcgemm_device_view): a part of another matrix, sharing its memory,
  !> which tcgemm_device_deallocate must not free and copies must not write around. It comes
  !> last and defaults to .false., so that `tcgemm_device_matrix(ptr, rows, cols, ld)` still
  !> wraps a whole matrix as before.
  type :: tcgemm_device_matrix
    type(c_ptr) :: ptr = c_null_ptr   !< device address of element (1, 1)
    integer(int64) :: rows = 0        !< number of rows
    integer(int64) :: cols = 0        !< number of columns
    integer(int64) :: ld = 1          !< leading dimension in elements, >= max(1, rows)
    logical :: is_view = .false.      !< a view into another matrix's memory (not freed here)
  end type tcgemm_device_matrix

  !> Allocate a device matrix: `(d, rows, cols [, ld])`, or `(d, source=a [, ld])` (shape of
  !> a, contents copied) or `(d, mold=a [, ld])` (shape of a only). rows, cols and ld all default
  !> integer or all int64; stat of either kind. For source=/mold=, ld of either kind: the
  !> int64-ld specific without an int64 stat (like_i64) and the default-ld one with an int64
  !> stat (like_i32_stat64) take ld as a required argument, which tells them from the others.
  interface tcgemm_device_allocate
    module procedure device_allocate_i32, device_allocate_i64
    module procedure device_allocate_i32_stat64, device_allocate_i64_stat64
    module procedure device_allocate_like_i32, device_allocate_like_i64
    module procedure device_allocate_like_i32_stat64, device_allocate_like_i64_stat64
  end interface tcgemm_device_allocate

  !> Copy between a host array and a device matrix, in the direction of the arguments:
  !> `call tcgemm_copy(a, a_d)` uploads, `call tcgemm_copy(c_d, c)` downloads.
  !> The host array is either rows x cols (the padding rows of the device matrix are written
  !> as zeros on upload and skipped on download) or ld x cols (copied verbatim, padding included).
  interface tcgemm_copy
    module procedure copy_to_device, copy_to_host, copy_to_device_stat64, copy_to_host_stat64
  end interface tcgemm_copy

  !> Free a device matrix: `call tcgemm_device_deallocate(d [, stat, errmsg])`.
  interface tcgemm_device_deallocate
    module procedure device_deallocate, device_deallocate_stat64
  end interface tcgemm_device_deallocate

  !> Wait for a stream: `call tcgemm_synchronize([stream, stat, errmsg])`.
  interface tcgemm_synchronize
    module procedure synchronize, synchronize_stat64
  end interface tcgemm_synchronize

  !> Whether a device matrix holds device memory: `tcgemm_device_allocated(d)`. A generic, so
  !> that tcgemm_device_real32 adds its matrices to it.
  interface tcgemm_device_allocated
    module procedure device_allocated
  end interface tcgemm_device_allocated

contains

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

  !> True when `d` holds device memory.
  logical function device_allocated(d)
    type(tcgemm_device_matrix), intent(in) :: d
    device_allocated = c_associated(d%ptr)
  end function device_allocated

  !> Bytes of device memory behind a rows x cols matrix with leading dimension ld and elements
  !> of element_bytes: whole columns of ld elements, none at all for an empty matrix.
  pure integer(int64) function storage_bytes(rows, cols, ld, element_bytes)
    integer(int64), intent(in) :: rows, cols, ld, element_bytes
    storage_bytes = 0
    if (rows > 0 .and. cols > 0) storage_bytes = ld * cols * element_bytes
  end function storage_bytes

  !> Allocate a rows x cols device matrix of element_bytes elements with leading dimension ld
  !> (default rows); contents undefined. Zero-size matrices get a null pointer and need no GPU.
  subroutine allocate_shape(d, rows, cols, ld, element_bytes, stat, errmsg)
    type(tcgemm_device_matrix), intent(inout) :: d
    integer(int64), intent(in) :: rows, cols, ld, element_bytes
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
      call fail_argument(where, 'ld * cols * ' // itoa(element_bytes) // &
                         ' bytes overflows a 64-bit integer', stat, errmsg)
      return
    end if

    ptr = c_null_ptr
    bytes = storage_bytes(rows, cols, ld, element_bytes)
    if (bytes > 0) then
      call finish(c_tcgemm_malloc(ptr, int(bytes, c_int64_t)), where, stat, errmsg)
      if (.not. c_associated(ptr)) return      ! failed and reported (stat present)
    else
      call report(TCGEMM_SUCCESS, '', stat, errmsg)
    end if
    d = tcgemm_device_matrix(ptr=ptr, rows=rows, cols=cols, ld=ld, is_view=.false.)
  end subroutine allocate_shape

  !> `call tcgemm_device_allocate(d, rows, cols [, ld, stat, errmsg])` with default integers.
  subroutine device_allocate_i32(d, rows, cols, ld, stat, errmsg)
    type(tcgemm_device_matrix), intent(inout) :: d
    integer(int32), intent(in) :: rows, cols
    integer(int32), intent(in), optional :: ld
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(int64) :: lead

    lead = max(1_int64, int(rows, int64))
    if (present(ld)) lead = int(ld, int64)
    call allocate_shape(d, int(rows, int64), int(cols, int64), lead, BYTES_PER_REAL64, stat, &
                        errmsg)
  end subroutine device_allocate_i32

  !> `call tcgemm_device_allocate(d, rows, cols [, ld, stat, errmsg])` with int64 sizes.
  subroutine device_allocate_i64(d, rows, cols, ld, stat, errmsg)
    type(tcgemm_device_matrix), intent(inout) :: d
    integer(int64), intent(in) :: rows, cols
    integer(int64), intent(in), optional :: ld
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(int64) :: lead

    lead = max(1_int64, rows)
    if (present(ld)) lead = ld
    call allocate_shape(d, rows, cols, lead, BYTES_PER_REAL64, stat, errmsg)
  end subroutine device_allocate_i64

  !> Default-integer sizes, int64 stat.
  subroutine device_allocate_i32_stat64(d, rows, cols, ld, stat, errmsg)
    type(tcgemm_device_matrix), intent(inout) :: d
    integer(int32), intent(in) :: rows, cols
    integer(int32), intent(in), optional :: ld
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call device_allocate_i32(d, rows, cols, ld, status, errmsg)
    stat = status
  end subroutine device_allocate_i32_stat64

  !> int64 sizes and stat: a caller compiled with -fdefault-integer-8.
  subroutine device_allocate_i64_stat64(d, rows, cols, ld, stat, errmsg)
    type(tcgemm_device_matrix), intent(inout) :: d
    integer(int64), intent(in) :: rows, cols
    integer(int64), intent(in), optional :: ld
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call device_allocate_i64(d, rows, cols, ld, status, errmsg)
    stat = status
  end subroutine device_allocate_i64_stat64

  !> source=/mold= with a default-integer ld (or none) and stat.
  subroutine device_allocate_like_i32(d, source, mold, ld, stat, errmsg)
    type(tcgemm_device_matrix), intent(inout) :: d
    real(real64), intent(in), optional :: source(:, :), mold(:, :)
    integer(int32), intent(in), optional :: ld
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(int64), allocatable :: lead     ! unallocated when ld is absent: passed on as absent
    if (present(ld)) lead = int(ld, int64)
    call allocate_like(d, source, mold, lead, stat, errmsg)
  end subroutine device_allocate_like_i32

  !> source=/mold= with an int64 ld (required here: it tells this specific from the one above)
  !> and a default-integer stat.
  subroutine device_allocate_like_i64(d, source, mold, ld, stat, errmsg)
    type(tcgemm_device_matrix), intent(inout) :: d
    real(real64), intent(in), optional :: source(:, :), mold(:, :)
    integer(int64), intent(in) :: ld
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call allocate_like(d, source, mold, ld, stat, errmsg)
  end subroutine device_allocate_like_i64

  !> source=/mold= with a default-integer ld (required here) and an int64 stat.
  subroutine device_allocate_like_i32_stat64(d, source, mold, ld, stat, errmsg)
    type(tcgemm_device_matrix), intent(inout) :: d
    real(real64), intent(in), optional :: source(:, :), mold(:, :)
    integer(int32), intent(in) :: ld
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call allocate_like(d, source, mold, int(ld, int64), status, errmsg)
    stat = status
  end subroutine device_allocate_like_i32_stat64

  !> source=/mold= with an int64 ld (or none) and stat: a caller compiled with -fdefault-integer-8.
  subroutine device_allocate_like_i64_stat64(d, source, mold, ld, stat, errmsg)
    type(tcgemm_device_matrix), intent(inout) :: d
    real(real64), intent(in), optional :: source(:, :), mold(:, :)
    integer(int64), intent(in), optional :: ld
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call allocate_like(d, source, mold, ld, status, errmsg)
    stat = status
  end subroutine device_allocate_like_i64_stat64

  !> Free the device memory of `d` and reset it to an empty matrix. A no-op for a matrix
  !> without memory. Only for memory from tcgemm_device_allocate. A view only forgets its
  !> parent's memory: the parent still owns it (and its deallocation ends every view of it).
  subroutine device_deallocate(d, stat, errmsg)
    type(tcgemm_device_matrix), intent(inout) :: d
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int) :: status

    status = TCGEMM_SUCCESS
    if (c_associated(d%ptr) .and. .not. d%is_view) status = c_tcgemm_free(d%ptr)
    d = tcgemm_device_matrix()
    call finish(status, 'tcgemm_device_deallocate', stat, errmsg)
  end subroutine device_deallocate

  subroutine device_deallocate_stat64(d, stat, errmsg)
    type(tcgemm_device_matrix), intent(inout) :: d
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call device_deallocate(d, status, errmsg)
    stat = status
  end subroutine device_deallocate_stat64

  !> Whether copies of `d` must keep to its own rows: a view narrower than its leading dimension
  !> shares the rows around it with its parent, and past its last column there may be no memory
  !> at all, so the whole-column copies of ld x cols blocks would overwrite (or overrun) them.
  pure logical function rows_only(d)
    type(tcgemm_device_matrix), intent(in) :: d
    rows_only = d%is_view .and. d%rows < d%ld
  end function rows_only

  !> `ptr` moved by `bytes`. Device addresses are plain numbers to the host; nothing is read.
  pure function offset_address(ptr, bytes) result(moved)
    type(c_ptr), intent(in) :: ptr
    integer(int64), intent(in) :: bytes
    type(c_ptr) :: moved
    moved = transfer(transfer(ptr, 0_c_intptr_t) + int(bytes, c_intptr_t), moved)
  end function offset_address

  !> Device address of element (1, j) of `d`, whose elements have element_bytes.
  pure function column_address(d, j, element_bytes) result(address)
    type(tcgemm_device_matrix), intent(in) :: d
    integer(int64), intent(in) :: j, element_bytes
    type(c_ptr) :: address
    address = offset_address(d%ptr, (j - 1) * d%ld * element_bytes)
  end function column_address

  !> Whether a host array of shape host_shape fits device matrix `d`: PACKED = rows x cols,
  !> VERBATIM = ld x cols (not for a view narrower than ld: its padding rows are its parent's).
  !> NOTHING_TO_COPY when it fits neither (reported as an error) or `d` is empty (reported as
  !> success): the copy is then complete. Only the host array's shape matters, so one function
  !> serves every kind.
  integer function copy_layout(where, host_shape, d, stat, errmsg)
    character(len=*), intent(in) :: where
    integer(int64), intent(in) :: host_shape(2)
    type(tcgemm_device_matrix), intent(in) :: d
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=:), allocatable :: allowed

    copy_layout = NOTHING_TO_COPY
    if (host_shape(2) == d%cols .and. host_shape(1) == d%ld .and. .not. rows_only(d)) then
      copy_layout = VERBATIM
    else if (host_shape(2) == d%cols .and. host_shape(1) == d%rows) then
      copy_layout = PACKED
    else
      allowed = ''
      if (rows_only(d)) allowed = ' (a view: the host array must be rows x cols; the rows ' // &
                                  'below it, up to ld, belong to its parent)'
      call fail_argument(where, 'the host array is ' // itoa(host_shape(1)) // 'x' // &
                         itoa(host_shape(2)) // ', the device matrix ' // &
                         shape_text(d) // ' with ld = ' // itoa(d%ld) // allowed, stat, errmsg)
      return
    end if
    if (d%rows == 0 .or. d%cols == 0) then
      copy_layout = NOTHING_TO_COPY
      call report(TCGEMM_SUCCESS, '', stat, errmsg)
    end if
  end function copy_layout

  subroutine copy_to_device_stat64(src, dst, stat, errmsg)
    real(real64), intent(in), contiguous, target :: src(:, :)
    type(tcgemm_device_matrix), intent(in) :: dst
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call copy_to_device(src, dst, status, errmsg)
    stat = status
  end subroutine copy_to_device_stat64

  subroutine copy_to_host_stat64(src, dst, stat, errmsg)
    type(tcgemm_device_matrix), intent(in) :: src
    real(real64), intent(inout), contiguous, target :: dst(:, :)
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call copy_to_host(src, dst, status, errmsg)
    stat = status
  end subroutine copy_to_host_stat64

  !> Wait until all work queued on `stream` (absent: the default stream) has finished. Errors
  !> of earlier asynchronous launches surface here.
  subroutine synchronize(stream, stat, errmsg)
    type(c_ptr), intent(in), optional :: stream
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call finish(c_tcgemm_synchronize(stream_or_default(stream)), 'tcgemm_synchronize', &
                stat, errmsg)
  end subroutine synchronize

  subroutine synchronize_stat64(stream, stat, errmsg)
    type(c_ptr), intent(in), optional :: stream
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call synchronize(stream, status, errmsg)
    stat = status
  end subroutine synchronize_stat64

  ! allocate_like (source=/mold=), copy_to_device, copy_to_host and their helpers for real(wp)
  ! host arrays.
  include 'tcgemm_device_copy.inc'

end module tcgemm_device_matrices
