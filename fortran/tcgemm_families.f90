!> Part of module tcgemm (fortran/tcgemm.f90 lists the parts): one call per kernel family of the
!> reference design, C = A B on device matrices, with the article's tile and padding parameters
!> (the CUDA Fortran tensor-core article; examples/fortran mirrors its programs).
!> Programs `use tcgemm`, not this module.
module tcgemm_families
  use, intrinsic :: iso_fortran_env, only: int64
  use, intrinsic :: iso_c_binding, only: c_int32_t, c_ptr
  use tcgemm_c, only: c_tcgemm_dmma_single, c_tcgemm_dmma_row, c_tcgemm_dmma_warp_per_block, &
                      c_tcgemm_dmma_block_tile, c_tcgemm_dmma_peak, c_tcgemm_dmma_shared_a, &
                      c_tcgemm_dmma_shared_ab
  use tcgemm_errors, only: finish, fail_argument, itoa
  use tcgemm_device_matrices, only: tcgemm_device_matrix, shape_text, stream_or_default
  use tcgemm_device_dgemm, only: conforming
  implicit none
  private

  public :: tcgemm_dmma_single, tcgemm_dmma_row, tcgemm_dmma_warp_per_block
  public :: tcgemm_dmma_block_tile, tcgemm_dmma_peak, tcgemm_dmma_shared_a
  public :: tcgemm_dmma_shared_ab

  !> Fragment shape of the FP64 WMMA examples (Examples 1, 2 and the peak benchmark).
  integer(int64), parameter :: WMMA_M = 8, WMMA_N = 8, WMMA_K = 4

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

end module tcgemm_families
