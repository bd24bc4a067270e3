!> Part of module tcgemm (fortran/tcgemm.f90 lists the parts): one call per kernel family of the
!> reference design, C = A B on device matrices, with the article's tile and padding parameters
!> (the CUDA Fortran tensor-core article; examples/fortran mirrors its programs).
!> Programs `use tcgemm`, not this module.
!>
!> Each call is a generic with a specific per kind of `stat` and of its tile, padding and niter
!> arguments (all default integer or all int64), so that a caller built with -fdefault-integer-8
!> gets its own. The `_stat64` specifics take stat as a required argument, which tells them from
!> the others (a call without stat goes to those). All specifics of a call end in its core,
!> which takes int64 and refuses, by name, a value the library's 32-bit arguments cannot hold.
module tcgemm_families
  use, intrinsic :: iso_fortran_env, only: int32, int64
  use, intrinsic :: iso_c_binding, only: c_int32_t, c_ptr
  use tcgemm_c, only: c_tcgemm_dmma_single, c_tcgemm_dmma_row, c_tcgemm_dmma_warp_per_block, &
                      c_tcgemm_dmma_block_tile, c_tcgemm_dmma_peak, c_tcgemm_dmma_shared_a, &
                      c_tcgemm_dmma_shared_ab
  use tcgemm_errors, only: finish, fail_argument, fits_int32, itoa
  use tcgemm_device_matrices, only: tcgemm_device_matrix, shape_text, stream_or_default
  use tcgemm_device_dgemm, only: conforming
  implicit none
  private

  public :: tcgemm_dmma_single, tcgemm_dmma_row, tcgemm_dmma_warp_per_block
  public :: tcgemm_dmma_block_tile, tcgemm_dmma_peak, tcgemm_dmma_shared_a
  public :: tcgemm_dmma_shared_ab

  !> Fragment shape of the FP64 WMMA examples (Examples 1, 2 and the peak benchmark).
  integer(int64), parameter :: WMMA_M = 8, WMMA_N = 8, WMMA_K = 4

  interface tcgemm_dmma_single
    module procedure dmma_single, dmma_single_stat64
  end interface tcgemm_dmma_single
  interface tcgemm_dmma_row
    module procedure dmma_row, dmma_row_stat64
  end interface tcgemm_dmma_row
  interface tcgemm_dmma_warp_per_block
    module procedure dmma_warp_per_block, dmma_warp_per_block_stat64
  end interface tcgemm_dmma_warp_per_block
  interface tcgemm_dmma_block_tile
    module procedure block_tile_i32, block_tile_i64, block_tile_i32_stat64, block_tile_i64_stat64
  end interface tcgemm_dmma_block_tile
  interface tcgemm_dmma_peak
    module procedure peak_i32, peak_i64, peak_i32_stat64, peak_i64_stat64
  end interface tcgemm_dmma_peak
  interface tcgemm_dmma_shared_a
    module procedure shared_a_i32, shared_a_i64, shared_a_i32_stat64, shared_a_i64_stat64
  end interface tcgemm_dmma_shared_a
  interface tcgemm_dmma_shared_ab
    module procedure shared_ab_i32, shared_ab_i64, shared_ab_i32_stat64, shared_ab_i64_stat64
  end interface tcgemm_dmma_shared_ab

contains

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
  subroutine dmma_single(a, b, c, stream, stat, errmsg)
    type(tcgemm_device_matrix), intent(in) :: a, b
    type(tcgemm_device_matrix), intent(inout) :: c
    type(c_ptr), intent(in), optional :: stream
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: where = 'tcgemm_dmma_single'

    if (.not. has_shape(where, 'A', a, WMMA_M, WMMA_K, stat, errmsg)) return
    if (.not. has_shape(where, 'B', b, WMMA_K, WMMA_N, stat, errmsg)) return
    if (.not. has_shape(where, 'C', c, WMMA_M, WMMA_N, stat, errmsg)) return
    call finish(c_tcgemm_dmma_single(a%ptr, a%ld, b%ptr, b%ld, c%ptr, c%ld, &
                                     stream_or_default(stream)), where, stat, errmsg)
  end subroutine dmma_single

  subroutine dmma_single_stat64(a, b, c, stream, stat, errmsg)
    type(tcgemm_device_matrix), intent(in) :: a, b
    type(tcgemm_device_matrix), intent(inout) :: c
    type(c_ptr), intent(in), optional :: stream
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call dmma_single(a, b, c, stream, status, errmsg)
    stat = status
  end subroutine dmma_single_stat64

  !> Example 2: C(8x8) = A(8xK) B(Kx8), one warp looping over K.
  subroutine dmma_row(a, b, c, stream, stat, errmsg)
    type(tcgemm_device_matrix), intent(in) :: a, b
    type(tcgemm_device_matrix), intent(inout) :: c
    type(c_ptr), intent(in), optional :: stream
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: where = 'tcgemm_dmma_row'

    if (.not. has_shape(where, 'A', a, WMMA_M, a%cols, stat, errmsg)) return
    if (.not. has_shape(where, 'B', b, a%cols, WMMA_N, stat, errmsg)) return
    if (.not. has_shape(where, 'C', c, WMMA_M, WMMA_N, stat, errmsg)) return
    call finish(c_tcgemm_dmma_row(a%cols, a%ptr, a%ld, b%ptr, b%ld, c%ptr, c%ld, &
                                  stream_or_default(stream)), where, stat, errmsg)
  end subroutine dmma_row

  subroutine dmma_row_stat64(a, b, c, stream, stat, errmsg)
    type(tcgemm_device_matrix), intent(in) :: a, b
    type(tcgemm_device_matrix), intent(inout) :: c
    type(c_ptr), intent(in), optional :: stream
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call dmma_row(a, b, c, stream, status, errmsg)
    stat = status
  end subroutine dmma_row_stat64

  !> Example 3: C = A B with one one-warp block per 8x8 tile of C; any sizes.
  subroutine dmma_warp_per_block(a, b, c, stream, stat, errmsg)
    type(tcgemm_device_matrix), intent(in) :: a, b
    type(tcgemm_device_matrix), intent(inout) :: c
    type(c_ptr), intent(in), optional :: stream
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(int64) :: m, n, k

    if (.not. conforming('tcgemm_dmma_warp_per_block', 'N', 'N', a, b, c, m, n, k, stat, &
                         errmsg)) return
    call finish(c_tcgemm_dmma_warp_per_block(m, n, k, a%ptr, a%ld, b%ptr, b%ld, c%ptr, c%ld, &
                                             stream_or_default(stream)), &
                'tcgemm_dmma_warp_per_block', stat, errmsg)
  end subroutine dmma_warp_per_block

  subroutine dmma_warp_per_block_stat64(a, b, c, stream, stat, errmsg)
    type(tcgemm_device_matrix), intent(in) :: a, b
    type(tcgemm_device_matrix), intent(inout) :: c
    type(c_ptr), intent(in), optional :: stream
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call dmma_warp_per_block(a, b, c, stream, status, errmsg)
    stat = status
  end subroutine dmma_warp_per_block_stat64

  !> Example 4: C = A B with a tile_m x tile_n C tile per multi-warp block (multiples of 8).
  subroutine block_tile_core(a, b, c, tile_m, tile_n, stream, stat, errmsg)
    type(tcgemm_device_matrix), intent(in) :: a, b
    type(tcgemm_device_matrix), intent(inout) :: c
    integer(int64), intent(in) :: tile_m, tile_n
    type(c_ptr), intent(in), optional :: stream
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: where = 'tcgemm_dmma_block_tile'
    integer(int64) :: m, n, k

    if (.not. conforming(where, 'N', 'N', a, b, c, m, n, k, stat, errmsg)) return
    if (.not. fits_int32(where, [character(len=6) :: 'tile_m', 'tile_n'], [tile_m, tile_n], &
                         stat, errmsg)) return
    call finish(c_tcgemm_dmma_block_tile(m, n, k, int(tile_m, c_int32_t), &
                                         int(tile_n, c_int32_t), a%ptr, a%ld, b%ptr, b%ld, &
                                         c%ptr, c%ld, stream_or_default(stream)), &
                where, stat, errmsg)
  end subroutine block_tile_core

  subroutine block_tile_i32(a, b, c, tile_m, tile_n, stream, stat, errmsg)
    type(tcgemm_device_matrix), intent(in) :: a, b
    type(tcgemm_device_matrix), intent(inout) :: c
    integer(int32), intent(in) :: tile_m, tile_n
    type(c_ptr), intent(in), optional :: stream
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call block_tile_core(a, b, c, int(tile_m, int64), int(tile_n, int64), stream, stat, errmsg)
  end subroutine block_tile_i32

  subroutine block_tile_i64(a, b, c, tile_m, tile_n, stream, stat, errmsg)
    type(tcgemm_device_matrix), intent(in) :: a, b
    type(tcgemm_device_matrix), intent(inout) :: c
    integer(int64), intent(in) :: tile_m, tile_n
    type(c_ptr), intent(in), optional :: stream
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call block_tile_core(a, b, c, tile_m, tile_n, stream, stat, errmsg)
  end subroutine block_tile_i64

  subroutine block_tile_i32_stat64(a, b, c, tile_m, tile_n, stream, stat, errmsg)
    type(tcgemm_device_matrix), intent(in) :: a, b
    type(tcgemm_device_matrix), intent(inout) :: c
    integer(int32), intent(in) :: tile_m, tile_n
    type(c_ptr), intent(in), optional :: stream
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call block_tile_core(a, b, c, int(tile_m, int64), int(tile_n, int64), stream, status, errmsg)
    stat = status
  end subroutine block_tile_i32_stat64

  subroutine block_tile_i64_stat64(a, b, c, tile_m, tile_n, stream, stat, errmsg)
    type(tcgemm_device_matrix), intent(in) :: a, b
    type(tcgemm_device_matrix), intent(inout) :: c
    integer(int64), intent(in) :: tile_m, tile_n
    type(c_ptr), intent(in), optional :: stream
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call block_tile_core(a, b, c, tile_m, tile_n, stream, status, errmsg)
    stat = status
  end subroutine block_tile_i64_stat64

  !> Figure 1 benchmark: every 8x8 tile of C (any m x n) receives niter * A(8x4) B(4x8),
  !> accumulated by niter mma_sync calls from one load of A and B.
  subroutine peak_core(a, b, c, niter, stream, stat, errmsg)
    type(tcgemm_device_matrix), intent(in) :: a, b
    type(tcgemm_device_matrix), intent(inout) :: c
    integer(int64), intent(in) :: niter
    type(c_ptr), intent(in), optional :: stream
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: where = 'tcgemm_dmma_peak'

    if (.not. has_shape(where, 'A', a, WMMA_M, WMMA_K, stat, errmsg)) return
    if (.not. has_shape(where, 'B', b, WMMA_K, WMMA_N, stat, errmsg)) return
    if (.not. fits_int32(where, ['niter'], [niter], stat, errmsg)) return
    call finish(c_tcgemm_dmma_peak(c%rows, c%cols, int(niter, c_int32_t), a%ptr, a%ld, b%ptr, &
                                   b%ld, c%ptr, c%ld, stream_or_default(stream)), &
                where, stat, errmsg)
  end subroutine peak_core

  subroutine peak_i32(a, b, c, niter, stream, stat, errmsg)
    type(tcgemm_device_matrix), intent(in) :: a, b
    type(tcgemm_device_matrix), intent(inout) :: c
    integer(int32), intent(in) :: niter
    type(c_ptr), intent(in), optional :: stream
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call peak_core(a, b, c, int(niter, int64), stream, stat, errmsg)
  end subroutine peak_i32

  subroutine peak_i64(a, b, c, niter, stream, stat, errmsg)
    type(tcgemm_device_matrix), intent(in) :: a, b
    type(tcgemm_device_matrix), intent(inout) :: c
    integer(int64), intent(in) :: niter
    type(c_ptr), intent(in), optional :: stream
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call peak_core(a, b, c, niter, stream, stat, errmsg)
  end subroutine peak_i64

  subroutine peak_i32_stat64(a, b, c, niter, stream, stat, errmsg)
    type(tcgemm_device_matrix), intent(in) :: a, b
    type(tcgemm_device_matrix), intent(inout) :: c
    integer(int32), intent(in) :: niter
    type(c_ptr), intent(in), optional :: stream
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call peak_core(a, b, c, int(niter, int64), stream, status, errmsg)
    stat = status
  end subroutine peak_i32_stat64

  subroutine peak_i64_stat64(a, b, c, niter, stream, stat, errmsg)
    type(tcgemm_device_matrix), intent(in) :: a, b
    type(tcgemm_device_matrix), intent(inout) :: c
    integer(int64), intent(in) :: niter
    type(c_ptr), intent(in), optional :: stream
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call peak_core(a, b, c, niter, stream, status, errmsg)
    stat = status
  end subroutine peak_i64_stat64

  !> Example 5: C = A B with a tile_m x 4 A tile in shared memory, leading dimension
  !> tile_m + pad_a (pad_a a multiple of 2 doubles: WMMA's 16-byte rule).
  subroutine shared_a_core(a, b, c, tile_m, pad_a, stream, stat, errmsg)
    type(tcgemm_device_matrix), intent(in) :: a, b
    type(tcgemm_device_matrix), intent(inout) :: c
    integer(int64), intent(in) :: tile_m, pad_a
    type(c_ptr), intent(in), optional :: stream
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: where = 'tcgemm_dmma_shared_a'
    integer(int64) :: m, n, k

    if (.not. conforming(where, 'N', 'N', a, b, c, m, n, k, stat, errmsg)) return
    if (.not. fits_int32(where, [character(len=6) :: 'tile_m', 'pad_a'], [tile_m, pad_a], &
                         stat, errmsg)) return
    call finish(c_tcgemm_dmma_shared_a(m, n, k, int(tile_m, c_int32_t), int(pad_a, c_int32_t), &
                                       a%ptr, a%ld, b%ptr, b%ld, c%ptr, c%ld, &
                                       stream_or_default(stream)), where, stat, errmsg)
  end subroutine shared_a_core

  subroutine shared_a_i32(a, b, c, tile_m, pad_a, stream, stat, errmsg)
    type(tcgemm_device_matrix), intent(in) :: a, b
    type(tcgemm_device_matrix), intent(inout) :: c
    integer(int32), intent(in) :: tile_m, pad_a
    type(c_ptr), intent(in), optional :: stream
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call shared_a_core(a, b, c, int(tile_m, int64), int(pad_a, int64), stream, stat, errmsg)
  end subroutine shared_a_i32

  subroutine shared_a_i64(a, b, c, tile_m, pad_a, stream, stat, errmsg)
    type(tcgemm_device_matrix), intent(in) :: a, b
    type(tcgemm_device_matrix), intent(inout) :: c
    integer(int64), intent(in) :: tile_m, pad_a
    type(c_ptr), intent(in), optional :: stream
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call shared_a_core(a, b, c, tile_m, pad_a, stream, stat, errmsg)
  end subroutine shared_a_i64

  subroutine shared_a_i32_stat64(a, b, c, tile_m, pad_a, stream, stat, errmsg)
    type(tcgemm_device_matrix), intent(in) :: a, b
    type(tcgemm_device_matrix), intent(inout) :: c
    integer(int32), intent(in) :: tile_m, pad_a
    type(c_ptr), intent(in), optional :: stream
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call shared_a_core(a, b, c, int(tile_m, int64), int(pad_a, int64), stream, status, errmsg)
    stat = status
  end subroutine shared_a_i32_stat64

  subroutine shared_a_i64_stat64(a, b, c, tile_m, pad_a, stream, stat, errmsg)
    type(tcgemm_device_matrix), intent(in) :: a, b
    type(tcgemm_device_matrix), intent(inout) :: c
    integer(int64), intent(in) :: tile_m, pad_a
    type(c_ptr), intent(in), optional :: stream
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call shared_a_core(a, b, c, tile_m, pad_a, stream, status, errmsg)
    stat = status
  end subroutine shared_a_i64_stat64

  !> Example 6: C = A B with tile x tile_k A and tile_k x tile B tiles in dynamic shared memory,
  !> paddings pad_a and pad_b on their leading dimensions.
  subroutine shared_ab_core(a, b, c, tile, tile_k, pad_a, pad_b, stream, stat, errmsg)
    type(tcgemm_device_matrix), intent(in) :: a, b
    type(tcgemm_device_matrix), intent(inout) :: c
    integer(int64), intent(in) :: tile, tile_k, pad_a, pad_b
    type(c_ptr), intent(in), optional :: stream
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: where = 'tcgemm_dmma_shared_ab'
    integer(int64) :: m, n, k

    if (.not. conforming(where, 'N', 'N', a, b, c, m, n, k, stat, errmsg)) return
    if (.not. fits_int32(where, [character(len=6) :: 'tile', 'tile_k', 'pad_a', 'pad_b'], &
                         [tile, tile_k, pad_a, pad_b], stat, errmsg)) return
    call finish(c_tcgemm_dmma_shared_ab(m, n, k, int(tile, c_int32_t), int(tile_k, c_int32_t), &
                                        int(pad_a, c_int32_t), int(pad_b, c_int32_t), a%ptr, &
                                        a%ld, b%ptr, b%ld, c%ptr, c%ld, &
                                        stream_or_default(stream)), where, stat, errmsg)
  end subroutine shared_ab_core

  subroutine shared_ab_i32(a, b, c, tile, tile_k, pad_a, pad_b, stream, stat, errmsg)
    type(tcgemm_device_matrix), intent(in) :: a, b
    type(tcgemm_device_matrix), intent(inout) :: c
    integer(int32), intent(in) :: tile, tile_k, pad_a, pad_b
    type(c_ptr), intent(in), optional :: stream
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call shared_ab_core(a, b, c, int(tile, int64), int(tile_k, int64), int(pad_a, int64), &
                        int(pad_b, int64), stream, stat, errmsg)
  end subroutine shared_ab_i32

  subroutine shared_ab_i64(a, b, c, tile, tile_k, pad_a, pad_b, stream, stat, errmsg)
    type(tcgemm_device_matrix), intent(in) :: a, b
    type(tcgemm_device_matrix), intent(inout) :: c
    integer(int64), intent(in) :: tile, tile_k, pad_a, pad_b
    type(c_ptr), intent(in), optional :: stream
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call shared_ab_core(a, b, c, tile, tile_k, pad_a, pad_b, stream, stat, errmsg)
  end subroutine shared_ab_i64

  subroutine shared_ab_i32_stat64(a, b, c, tile, tile_k, pad_a, pad_b, stream, stat, errmsg)
    type(tcgemm_device_matrix), intent(in) :: a, b
    type(tcgemm_device_matrix), intent(inout) :: c
    integer(int32), intent(in) :: tile, tile_k, pad_a, pad_b
    type(c_ptr), intent(in), optional :: stream
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call shared_ab_core(a, b, c, int(tile, int64), int(tile_k, int64), int(pad_a, int64), &
                        int(pad_b, int64), stream, status, errmsg)
    stat = status
  end subroutine shared_ab_i32_stat64

  subroutine shared_ab_i64_stat64(a, b, c, tile, tile_k, pad_a, pad_b, stream, stat, errmsg)
    type(tcgemm_device_matrix), intent(in) :: a, b
    type(tcgemm_device_matrix), intent(inout) :: c
    integer(int64), intent(in) :: tile, tile_k, pad_a, pad_b
    type(c_ptr), intent(in), optional :: stream
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: status
    call shared_ab_core(a, b, c, tile, tile_k, pad_a, pad_b, stream, status, errmsg)
    stat = status
  end subroutine shared_ab_i64_stat64

end module tcgemm_families
