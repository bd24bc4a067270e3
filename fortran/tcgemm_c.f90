!> Raw iso_c_binding layer of tcgemm: one `bind(C)` interface per entry point of
!> cxx/include/tcgemm/tcgemm.h, the status and family constants, and the two interoperable
!> structs. Nothing here checks anything or allocates: it is exactly the C API, callable from
!> Fortran. Most programs want module `tcgemm` (fortran/tcgemm.f90), which wraps this layer in
!> Fortran-style procedures with `stat`/`errmsg` arguments.
!>
!> Naming: the Fortran name of each interface is the C name prefixed with `c_`
!> (`c_tcgemm_dgemm` binds `tcgemm_dgemm`), so the wrappers in module `tcgemm` can use the
!> plain C names. tools/check_fortran_bindings.py compares every interface below with the
!> header and with the symbols libtcgemm.so exports (names, argument counts, kinds, value or
!> reference); keep one interface per `bind(C, name="...")` so that check can read them.
!>
!> Argument mapping used throughout:
!>   int64_t / int32_t / double / char by value -> integer(c_int64_t) / integer(c_int32_t) /
!>                                                  real(c_double) / character(kind=c_char), value
!>   cudaStream_t, device pointers, void*       -> type(c_ptr), value
!>   cudaStream_t* out-argument                  -> type(c_ptr), intent(out) (by reference)
!>   host double arrays (tcgemm_dgemm_host)     -> real(c_double) arrays by reference
!>   host float arrays (tcgemm_sgemm_host)      -> real(c_float) arrays by reference
!>   T* out-arguments and const struct*          -> the Fortran variable by reference
!>   tcgemm_status return                        -> integer(c_int) function result (a C enum)
!>   const char* return                          -> type(c_ptr); module tcgemm converts it
module tcgemm_c
  use, intrinsic :: iso_c_binding, only: c_int, c_int32_t, c_int64_t, c_double, c_float, c_char, &
                                         c_ptr, c_size_t
  implicit none
  private

  ! ---- library version the module was written against (tcgemm.h TCGEMM_VERSION_*) ----------
  integer(c_int), parameter, public :: TCGEMM_VERSION_MAJOR = 0
  integer(c_int), parameter, public :: TCGEMM_VERSION_MINOR = 1
  integer(c_int), parameter, public :: TCGEMM_VERSION_PATCH = 0

  ! ---- enum tcgemm_status (values are ABI) --------------------------------------------------
  integer(c_int), parameter, public :: TCGEMM_SUCCESS = 0
  integer(c_int), parameter, public :: TCGEMM_ERROR_INVALID_ARGUMENT = 1
  integer(c_int), parameter, public :: TCGEMM_ERROR_INVALID_CONFIG = 2
  integer(c_int), parameter, public :: TCGEMM_ERROR_NO_DEVICE = 3
  integer(c_int), parameter, public :: TCGEMM_ERROR_ARCHITECTURE = 4
  integer(c_int), parameter, public :: TCGEMM_ERROR_SHARED_MEMORY = 5
  integer(c_int), parameter, public :: TCGEMM_ERROR_CUDA = 6
  integer(c_int), parameter, public :: TCGEMM_ERROR_CONTEXT_LOST = 7

  ! ---- limits and argument numbering (#define in tcgemm.h) -----------------------------------
  integer(c_int64_t), parameter, public :: TCGEMM_MAX_MATRIX_BYTES = 2_c_int64_t**52
  integer(c_int32_t), parameter, public :: TCGEMM_ARG_CONFIG = 14

  ! ---- enum tcgemm_family (stored in tcgemm_config%family, an int32_t) -----------------------
  integer(c_int32_t), parameter, public :: TCGEMM_FAMILY_AUTO = 0
  integer(c_int32_t), parameter, public :: TCGEMM_FAMILY_SINGLE = 1
  integer(c_int32_t), parameter, public :: TCGEMM_FAMILY_ROW = 2
  integer(c_int32_t), parameter, public :: TCGEMM_FAMILY_WARP_PER_BLOCK = 3
  integer(c_int32_t), parameter, public :: TCGEMM_FAMILY_BLOCK_TILE = 4
  integer(c_int32_t), parameter, public :: TCGEMM_FAMILY_PEAK = 5
  integer(c_int32_t), parameter, public :: TCGEMM_FAMILY_SHARED_A = 6
  integer(c_int32_t), parameter, public :: TCGEMM_FAMILY_SHARED_AB = 7
  integer(c_int32_t), parameter, public :: TCGEMM_FAMILY_SM90_MMA = 8
  integer(c_int32_t), parameter, public :: TCGEMM_FAMILY_SKINNY = 9

  ! ---- lower precisions: enum tcgemm_datatype, tcgemm_wmma_shape, tcgemm_precision (int32_t arguments) --
  integer(c_int32_t), parameter, public :: TCGEMM_TYPE_F64 = 0
  integer(c_int32_t), parameter, public :: TCGEMM_TYPE_F32 = 1
  integer(c_int32_t), parameter, public :: TCGEMM_TYPE_F16 = 2
  integer(c_int32_t), parameter, public :: TCGEMM_TYPE_BF16 = 3
  integer(c_int32_t), parameter, public :: TCGEMM_WMMA_SHAPE_DEFAULT = 0
  integer(c_int32_t), parameter, public :: TCGEMM_WMMA_16x16x16 = 1
  integer(c_int32_t), parameter, public :: TCGEMM_WMMA_32x8x16 = 2
  integer(c_int32_t), parameter, public :: TCGEMM_WMMA_8x32x16 = 3
  integer(c_int32_t), parameter, public :: TCGEMM_WMMA_16x16x8 = 4
  integer(c_int32_t), parameter, public :: TCGEMM_PRECISION_TF32 = 1
  integer(c_int32_t), parameter, public :: TCGEMM_PRECISION_FP16 = 2
  integer(c_int32_t), parameter, public :: TCGEMM_PRECISION_BF16 = 3
  integer(c_int32_t), parameter, public :: TCGEMM_PRECISION_FP32 = 4

  !> struct tcgemm_wmma_config (tcgemm_gemm_ex): shape, tile, tile_n, tile_k and stages 0 mean their
  !> defaults (tile_n 0: tile); the paddings (elements, whole 16-byte units) are taken as given; reserved
  !> must stay 0.
  type, bind(C), public :: tcgemm_wmma_config
    integer(c_int32_t) :: shape = TCGEMM_WMMA_SHAPE_DEFAULT
    integer(c_int32_t) :: tile = 0
    integer(c_int32_t) :: tile_k = 0
    integer(c_int32_t) :: pad_a = 0
    integer(c_int32_t) :: pad_b = 0
    integer(c_int32_t) :: stages = 0
    integer(c_int32_t) :: tile_n = 0
    integer(c_int32_t) :: reserved(1) = 0
  end type tcgemm_wmma_config

  !> Length of tcgemm_device_info%name (char name[256] in C).
  integer, parameter, public :: TCGEMM_DEVICE_NAME_LEN = 256

  !> struct tcgemm_config. Zero tile_m/tile_n/tile_k/stages means "the family's default";
  !> paddings are taken as given. k_splits: 0 or 1 = no split-K; > 1 = at most that many k-slices
  !> added in a fixed order (families sm90_mma and skinny; must be 0 with family auto). Skinny with
  !> 0 may stream whole columns without slices; 1 or more always runs its chunked kernel.
  type, bind(C), public :: tcgemm_config
    integer(c_int32_t) :: family = TCGEMM_FAMILY_AUTO
    integer(c_int32_t) :: tile_m = 0
    integer(c_int32_t) :: tile_n = 0
    integer(c_int32_t) :: tile_k = 0
    integer(c_int32_t) :: pad_a = 0
    integer(c_int32_t) :: pad_b = 0
    integer(c_int32_t) :: stages = 0
    integer(c_int32_t) :: k_splits = 0
  end type tcgemm_config

  !> struct tcgemm_device_info. `name` is a NUL-terminated C string; module tcgemm's
  !> tcgemm_device_name() returns it as a Fortran string.
  type, bind(C), public :: tcgemm_device_info
    character(kind=c_char) :: name(TCGEMM_DEVICE_NAME_LEN)
    integer(c_int32_t) :: device
    integer(c_int32_t) :: cc_major
    integer(c_int32_t) :: cc_minor
    integer(c_int32_t) :: sm_count
    integer(c_int64_t) :: shared_memory_per_block_optin
    integer(c_int64_t) :: shared_memory_per_sm
    integer(c_int64_t) :: global_memory
  end type tcgemm_device_info

  !> struct tcgemm_plan (tcgemm_dgemm_plan): how tcgemm_dgemm runs one problem shape and the model's
  !> reasons; `summary` is a NUL-terminated C string (module tcgemm's tcgemm_plan_summary()).
  integer, parameter, public :: TCGEMM_PLAN_SUMMARY_LEN = 320
  type, bind(C), public :: tcgemm_plan
    type(tcgemm_config) :: config
    integer(c_int64_t) :: tiles
    integer(c_int64_t) :: k_slices
    integer(c_int64_t) :: k_per_slice
    integer(c_int64_t) :: blocks
    integer(c_int64_t) :: workspace_bytes
    integer(c_int32_t) :: blocks_per_sm
    integer(c_int32_t) :: sm_count
    integer(c_int32_t) :: cluster_split
    real(c_double) :: waves
    real(c_double) :: compute_us
    real(c_double) :: memory_us
    real(c_double) :: predicted_us
    character(kind=c_char) :: summary(TCGEMM_PLAN_SUMMARY_LEN)
  end type tcgemm_plan

  public :: c_tcgemm_status_string, c_tcgemm_last_error, c_tcgemm_last_error_argument
  public :: c_tcgemm_last_error_output_written
  public :: c_tcgemm_version_string
  public :: c_tcgemm_device_info_get
  public :: c_tcgemm_default_config, c_tcgemm_config_validate, c_tcgemm_config_shared_memory_bytes
  public :: c_tcgemm_config_threads_per_block, c_tcgemm_config_check_device
  public :: c_tcgemm_dmma_single, c_tcgemm_dmma_row, c_tcgemm_dmma_warp_per_block
  public :: c_tcgemm_dmma_block_tile, c_tcgemm_dmma_peak, c_tcgemm_dmma_shared_a
  public :: c_tcgemm_dmma_shared_ab
  public :: c_tcgemm_dgemm, c_tcgemm_dgemm_config, c_tcgemm_dgemm_select_config, c_tcgemm_dgemm_plan
  public :: c_tcgemm_dgemm_host, c_tcgemm_release_workspace
  public :: c_tcgemm_set_host_devices, c_tcgemm_get_host_devices
  public :: c_tcgemm_dgemm_strided_batched, c_tcgemm_dgemm_batched, c_tcgemm_dgemm_strided_batched_host
  public :: c_tcgemm_dgemm_grouped_batched
  public :: c_tcgemm_gemm_ex, c_tcgemm_wmma_config_resolve, c_tcgemm_sgemm, c_tcgemm_sgemm_host
  public :: c_tcgemm_host_register, c_tcgemm_host_unregister
  public :: c_tcgemm_malloc, c_tcgemm_free, c_tcgemm_memcpy_to_device, c_tcgemm_memcpy_to_host
  public :: c_tcgemm_synchronize
  public :: c_tcgemm_stream_create, c_tcgemm_stream_destroy, c_tcgemm_stream_synchronize
  public :: c_strlen

  interface
    ! ---- status and errors --------------------------------------------------------------------
    function c_tcgemm_status_string(status) result(str) bind(C, name="tcgemm_status_string")
      import :: c_int, c_ptr
      integer(c_int), value :: status
      type(c_ptr) :: str
    end function c_tcgemm_status_string

    function c_tcgemm_last_error() result(str) bind(C, name="tcgemm_last_error")
      import :: c_ptr
      type(c_ptr) :: str
    end function c_tcgemm_last_error

    function c_tcgemm_last_error_argument() result(argument) bind(C, name="tcgemm_last_error_argument")
      import :: c_int32_t
      integer(c_int32_t) :: argument
    end function c_tcgemm_last_error_argument

    function c_tcgemm_last_error_output_written() result(written) &
        bind(C, name="tcgemm_last_error_output_written")
      import :: c_int32_t
      integer(c_int32_t) :: written
    end function c_tcgemm_last_error_output_written

    function c_tcgemm_version_string() result(str) bind(C, name="tcgemm_version_string")
      import :: c_ptr
      type(c_ptr) :: str
    end function c_tcgemm_version_string

    ! ---- device -------------------------------------------------------------------------------
    function c_tcgemm_device_info_get(device, info) result(status) &
        bind(C, name="tcgemm_device_info_get")
      import :: c_int, c_int32_t, tcgemm_device_info
      integer(c_int32_t), value :: device
      type(tcgemm_device_info), intent(out) :: info
      integer(c_int) :: status
    end function c_tcgemm_device_info_get

    ! ---- configurations -----------------------------------------------------------------------
    function c_tcgemm_default_config(family, config) result(status) &
        bind(C, name="tcgemm_default_config")
      import :: c_int, c_int32_t, tcgemm_config
      integer(c_int32_t), value :: family
      type(tcgemm_config), intent(out) :: config
      integer(c_int) :: status
    end function c_tcgemm_default_config

    function c_tcgemm_config_validate(config) result(status) &
        bind(C, name="tcgemm_config_validate")
      import :: c_int, tcgemm_config
      type(tcgemm_config), intent(in) :: config
      integer(c_int) :: status
    end function c_tcgemm_config_validate

    function c_tcgemm_config_shared_memory_bytes(config, bytes) result(status) &
        bind(C, name="tcgemm_config_shared_memory_bytes")
      import :: c_int, c_int64_t, tcgemm_config
      type(tcgemm_config), intent(in) :: config
      integer(c_int64_t), intent(out) :: bytes
      integer(c_int) :: status
    end function c_tcgemm_config_shared_memory_bytes

    function c_tcgemm_config_threads_per_block(config, threads) result(status) &
        bind(C, name="tcgemm_config_threads_per_block")
      import :: c_int, c_int32_t, tcgemm_config
      type(tcgemm_config), intent(in) :: config
      integer(c_int32_t), intent(out) :: threads
      integer(c_int) :: status
    end function c_tcgemm_config_threads_per_block

    function c_tcgemm_config_check_device(config, device) result(status) &
        bind(C, name="tcgemm_config_check_device")
      import :: c_int, c_int32_t, tcgemm_config
      type(tcgemm_config), intent(in) :: config
      integer(c_int32_t), value :: device
      integer(c_int) :: status
    end function c_tcgemm_config_check_device

    ! ---- FP64 WMMA families (device pointers) -------------------------------------------------
    function c_tcgemm_dmma_single(a, lda, b, ldb, c, ldc, stream) result(status) &
        bind(C, name="tcgemm_dmma_single")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: a
      integer(c_int64_t), value :: lda
      type(c_ptr), value :: b
      integer(c_int64_t), value :: ldb
      type(c_ptr), value :: c
      integer(c_int64_t), value :: ldc
      type(c_ptr), value :: stream
      integer(c_int) :: status
    end function c_tcgemm_dmma_single

    function c_tcgemm_dmma_row(k, a, lda, b, ldb, c, ldc, stream) result(status) &
        bind(C, name="tcgemm_dmma_row")
      import :: c_int, c_int64_t, c_ptr
      integer(c_int64_t), value :: k
      type(c_ptr), value :: a
      integer(c_int64_t), value :: lda
      type(c_ptr), value :: b
      integer(c_int64_t), value :: ldb
      type(c_ptr), value :: c
      integer(c_int64_t), value :: ldc
      type(c_ptr), value :: stream
      integer(c_int) :: status
    end function c_tcgemm_dmma_row

    function c_tcgemm_dmma_warp_per_block(m, n, k, a, lda, b, ldb, c, ldc, stream) &
        result(status) bind(C, name="tcgemm_dmma_warp_per_block")
      import :: c_int, c_int64_t, c_ptr
      integer(c_int64_t), value :: m, n, k
      type(c_ptr), value :: a
      integer(c_int64_t), value :: lda
      type(c_ptr), value :: b
      integer(c_int64_t), value :: ldb
      type(c_ptr), value :: c
      integer(c_int64_t), value :: ldc
      type(c_ptr), value :: stream
      integer(c_int) :: status
    end function c_tcgemm_dmma_warp_per_block

    function c_tcgemm_dmma_block_tile(m, n, k, tile_m, tile_n, a, lda, b, ldb, c, ldc, stream) &
        result(status) bind(C, name="tcgemm_dmma_block_tile")
      import :: c_int, c_int32_t, c_int64_t, c_ptr
      integer(c_int64_t), value :: m, n, k
      integer(c_int32_t), value :: tile_m, tile_n
      type(c_ptr), value :: a
      integer(c_int64_t), value :: lda
      type(c_ptr), value :: b
      integer(c_int64_t), value :: ldb
      type(c_ptr), value :: c
      integer(c_int64_t), value :: ldc
      type(c_ptr), value :: stream
      integer(c_int) :: status
    end function c_tcgemm_dmma_block_tile

    function c_tcgemm_dmma_peak(m, n, niter, a, lda, b, ldb, c, ldc, stream) result(status) &
        bind(C, name="tcgemm_dmma_peak")
      import :: c_int, c_int32_t, c_int64_t, c_ptr
      integer(c_int64_t), value :: m, n
      integer(c_int32_t), value :: niter
      type(c_ptr), value :: a
      integer(c_int64_t), value :: lda
      type(c_ptr), value :: b
      integer(c_int64_t), value :: ldb
      type(c_ptr), value :: c
      integer(c_int64_t), value :: ldc
      type(c_ptr), value :: stream
      integer(c_int) :: status
    end function c_tcgemm_dmma_peak

    function c_tcgemm_dmma_shared_a(m, n, k, tile_m, pad_a, a, lda, b, ldb, c, ldc, stream) &
        result(status) bind(C, name="tcgemm_dmma_shared_a")
      import :: c_int, c_int32_t, c_int64_t, c_ptr
      integer(c_int64_t), value :: m, n, k
      integer(c_int32_t), value :: tile_m, pad_a
      type(c_ptr), value :: a
      integer(c_int64_t), value :: lda
      type(c_ptr), value :: b
      integer(c_int64_t), value :: ldb
      type(c_ptr), value :: c
      integer(c_int64_t), value :: ldc
      type(c_ptr), value :: stream
      integer(c_int) :: status
    end function c_tcgemm_dmma_shared_a

    function c_tcgemm_dmma_shared_ab(m, n, k, tile, tile_k, pad_a, pad_b, a, lda, b, ldb, c, &
        ldc, stream) result(status) bind(C, name="tcgemm_dmma_shared_ab")
      import :: c_int, c_int32_t, c_int64_t, c_ptr
      integer(c_int64_t), value :: m, n, k
      integer(c_int32_t), value :: tile, tile_k, pad_a, pad_b
      type(c_ptr), value :: a
      integer(c_int64_t), value :: lda
      type(c_ptr), value :: b
      integer(c_int64_t), value :: ldb
      type(c_ptr), value :: c
      integer(c_int64_t), value :: ldc
      type(c_ptr), value :: stream
      integer(c_int) :: status
    end function c_tcgemm_dmma_shared_ab

    ! ---- BLAS-semantics DGEMM -----------------------------------------------------------------
    function c_tcgemm_dgemm(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, &
        stream) result(status) bind(C, name="tcgemm_dgemm")
      import :: c_int, c_int64_t, c_double, c_char, c_ptr
      character(kind=c_char), value :: transa, transb
      integer(c_int64_t), value :: m, n, k
      real(c_double), value :: alpha
      type(c_ptr), value :: a
      integer(c_int64_t), value :: lda
      type(c_ptr), value :: b
      integer(c_int64_t), value :: ldb
      real(c_double), value :: beta
      type(c_ptr), value :: c
      integer(c_int64_t), value :: ldc
      type(c_ptr), value :: stream
      integer(c_int) :: status
    end function c_tcgemm_dgemm

    function c_tcgemm_dgemm_config(config, transa, transb, m, n, k, alpha, a, lda, b, ldb, &
        beta, c, ldc, stream) result(status) bind(C, name="tcgemm_dgemm_config")
      import :: c_int, c_int64_t, c_double, c_char, c_ptr, tcgemm_config
      type(tcgemm_config), intent(in) :: config
      character(kind=c_char), value :: transa, transb
      integer(c_int64_t), value :: m, n, k
      real(c_double), value :: alpha
      type(c_ptr), value :: a
      integer(c_int64_t), value :: lda
      type(c_ptr), value :: b
      integer(c_int64_t), value :: ldb
      real(c_double), value :: beta
      type(c_ptr), value :: c
      integer(c_int64_t), value :: ldc
      type(c_ptr), value :: stream
      integer(c_int) :: status
    end function c_tcgemm_dgemm_config

    function c_tcgemm_dgemm_select_config(device, config) result(status) &
        bind(C, name="tcgemm_dgemm_select_config")
      import :: c_int, c_int32_t, tcgemm_config
      integer(c_int32_t), value :: device
      type(tcgemm_config), intent(out) :: config
      integer(c_int) :: status
    end function c_tcgemm_dgemm_select_config

    function c_tcgemm_dgemm_plan(transa, transb, m, n, k, plan) result(status) &
        bind(C, name="tcgemm_dgemm_plan")
      import :: c_int, c_int64_t, c_char, tcgemm_plan
      character(kind=c_char), value :: transa, transb
      integer(c_int64_t), value :: m, n, k
      type(tcgemm_plan), intent(out) :: plan
      integer(c_int) :: status
    end function c_tcgemm_dgemm_plan

    ! Host arrays by reference: the C side copies them to its per-thread device workspace.
    ! ---- lower precisions on device arrays (a, b, c: device addresses) --------------------------
    function c_tcgemm_gemm_ex(transa, transb, m, n, k, alpha, a, a_type, lda, b, b_type, ldb, beta, c, &
        c_type, ldc, compute, config, stream) result(status) bind(C, name="tcgemm_gemm_ex")
      import :: c_int, c_int32_t, c_int64_t, c_float, c_char, c_ptr
      character(kind=c_char), value :: transa, transb
      integer(c_int64_t), value :: m, n, k
      real(c_float), value :: alpha
      type(c_ptr), value :: a
      integer(c_int32_t), value :: a_type
      integer(c_int64_t), value :: lda
      type(c_ptr), value :: b
      integer(c_int32_t), value :: b_type
      integer(c_int64_t), value :: ldb
      real(c_float), value :: beta
      type(c_ptr), value :: c
      integer(c_int32_t), value :: c_type
      integer(c_int64_t), value :: ldc
      integer(c_int32_t), value :: compute
      type(c_ptr), value :: config  ! c_loc of a tcgemm_wmma_config, or c_null_ptr for the defaults
      type(c_ptr), value :: stream
      integer(c_int) :: status
    end function c_tcgemm_gemm_ex

    function c_tcgemm_wmma_config_resolve(input_type, compute, config, resolved, shared_memory_bytes) &
        result(status) bind(C, name="tcgemm_wmma_config_resolve")
      import :: c_int, c_int32_t, c_int64_t, c_ptr, tcgemm_wmma_config
      integer(c_int32_t), value :: input_type, compute
      type(c_ptr), value :: config  ! c_loc of a tcgemm_wmma_config, or c_null_ptr for the defaults
      type(tcgemm_wmma_config), intent(out) :: resolved
      integer(c_int64_t), intent(out) :: shared_memory_bytes
      integer(c_int) :: status
    end function c_tcgemm_wmma_config_resolve

    function c_tcgemm_sgemm(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, precision, &
        stream) result(status) bind(C, name="tcgemm_sgemm")
      import :: c_int, c_int32_t, c_int64_t, c_float, c_char, c_ptr
      character(kind=c_char), value :: transa, transb
      integer(c_int64_t), value :: m, n, k
      real(c_float), value :: alpha
      type(c_ptr), value :: a
      integer(c_int64_t), value :: lda
      type(c_ptr), value :: b
      integer(c_int64_t), value :: ldb
      real(c_float), value :: beta
      type(c_ptr), value :: c
      integer(c_int64_t), value :: ldc
      integer(c_int32_t), value :: precision
      type(c_ptr), value :: stream
      integer(c_int) :: status
    end function c_tcgemm_sgemm

    function c_tcgemm_sgemm_host(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, &
        precision) result(status) bind(C, name="tcgemm_sgemm_host")
      import :: c_int, c_int32_t, c_int64_t, c_float, c_char
      character(kind=c_char), value :: transa, transb
      integer(c_int64_t), value :: m, n, k
      real(c_float), value :: alpha
      real(c_float), intent(in) :: a(*)
      integer(c_int64_t), value :: lda
      real(c_float), intent(in) :: b(*)
      integer(c_int64_t), value :: ldb
      real(c_float), value :: beta
      real(c_float), intent(inout) :: c(*)
      integer(c_int64_t), value :: ldc
      integer(c_int32_t), value :: precision
      integer(c_int) :: status
    end function c_tcgemm_sgemm_host

    function c_tcgemm_dgemm_host(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc) &
        result(status) bind(C, name="tcgemm_dgemm_host")
      import :: c_int, c_int64_t, c_double, c_char
      character(kind=c_char), value :: transa, transb
      integer(c_int64_t), value :: m, n, k
      real(c_double), value :: alpha
      real(c_double), intent(in) :: a(*)
      integer(c_int64_t), value :: lda
      real(c_double), intent(in) :: b(*)
      integer(c_int64_t), value :: ldb
      real(c_double), value :: beta
      real(c_double), intent(inout) :: c(*)
      integer(c_int64_t), value :: ldc
      integer(c_int) :: status
    end function c_tcgemm_dgemm_host

    ! ---- batched small DGEMMs ------------------------------------------------------------------
    ! Device arrays (A, B, C device pointers; for tcgemm_dgemm_batched device arrays of device pointers).
    function c_tcgemm_dgemm_strided_batched(transa, transb, m, n, k, alpha, a, lda, stride_a, b, ldb, &
        stride_b, beta, c, ldc, stride_c, batch, stream) result(status) &
        bind(C, name="tcgemm_dgemm_strided_batched")
      import :: c_int, c_int64_t, c_double, c_char, c_ptr
      character(kind=c_char), value :: transa, transb
      integer(c_int64_t), value :: m, n, k
      real(c_double), value :: alpha
      type(c_ptr), value :: a
      integer(c_int64_t), value :: lda, stride_a
      type(c_ptr), value :: b
      integer(c_int64_t), value :: ldb, stride_b
      real(c_double), value :: beta
      type(c_ptr), value :: c
      integer(c_int64_t), value :: ldc, stride_c, batch
      type(c_ptr), value :: stream
      integer(c_int) :: status
    end function c_tcgemm_dgemm_strided_batched

    function c_tcgemm_dgemm_batched(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, &
        batch, stream) result(status) bind(C, name="tcgemm_dgemm_batched")
      import :: c_int, c_int64_t, c_double, c_char, c_ptr
      character(kind=c_char), value :: transa, transb
      integer(c_int64_t), value :: m, n, k
      real(c_double), value :: alpha
      type(c_ptr), value :: a
      integer(c_int64_t), value :: lda
      type(c_ptr), value :: b
      integer(c_int64_t), value :: ldb
      real(c_double), value :: beta
      type(c_ptr), value :: c
      integer(c_int64_t), value :: ldc, batch
      type(c_ptr), value :: stream
      integer(c_int) :: status
    end function c_tcgemm_dgemm_batched

    ! Groups of products of several shapes: per-group host arrays (group_count values each), device arrays of
    ! device pointers with one entry per product, the groups' products one after the other.
    function c_tcgemm_dgemm_grouped_batched(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, &
        group_count, group_size, stream) result(status) bind(C, name="tcgemm_dgemm_grouped_batched")
      import :: c_int, c_int64_t, c_double, c_char, c_ptr
      character(kind=c_char), intent(in) :: transa(*), transb(*)
      integer(c_int64_t), intent(in) :: m(*), n(*), k(*)
      real(c_double), intent(in) :: alpha(*)
      type(c_ptr), value :: a
      integer(c_int64_t), intent(in) :: lda(*)
      type(c_ptr), value :: b
      integer(c_int64_t), intent(in) :: ldb(*)
      real(c_double), intent(in) :: beta(*)
      type(c_ptr), value :: c
      integer(c_int64_t), intent(in) :: ldc(*)
      integer(c_int64_t), value :: group_count
      integer(c_int64_t), intent(in) :: group_size(*)
      type(c_ptr), value :: stream
      integer(c_int) :: status
    end function c_tcgemm_dgemm_grouped_batched

    ! Host arrays: the whole batch as one element sequence each (module tcgemm's tcgemm_dgemm_batched).
    function c_tcgemm_dgemm_strided_batched_host(transa, transb, m, n, k, alpha, a, lda, stride_a, b, &
        ldb, stride_b, beta, c, ldc, stride_c, batch) result(status) &
        bind(C, name="tcgemm_dgemm_strided_batched_host")
      import :: c_int, c_int64_t, c_double, c_char
      character(kind=c_char), value :: transa, transb
      integer(c_int64_t), value :: m, n, k
      real(c_double), value :: alpha
      real(c_double), intent(in) :: a(*)
      integer(c_int64_t), value :: lda, stride_a
      real(c_double), intent(in) :: b(*)
      integer(c_int64_t), value :: ldb, stride_b
      real(c_double), value :: beta
      real(c_double), intent(inout) :: c(*)
      integer(c_int64_t), value :: ldc, stride_c, batch
      integer(c_int) :: status
    end function c_tcgemm_dgemm_strided_batched_host

    function c_tcgemm_host_register(host_ptr, bytes) result(status) bind(C, name="tcgemm_host_register")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: host_ptr
      integer(c_int64_t), value :: bytes
      integer(c_int) :: status
    end function c_tcgemm_host_register

    function c_tcgemm_host_unregister(host_ptr) result(status) bind(C, name="tcgemm_host_unregister")
      import :: c_int, c_ptr
      type(c_ptr), value :: host_ptr
      integer(c_int) :: status
    end function c_tcgemm_host_unregister

    function c_tcgemm_release_workspace() result(status) bind(C, name="tcgemm_release_workspace")
      import :: c_int
      integer(c_int) :: status
    end function c_tcgemm_release_workspace

    function c_tcgemm_set_host_devices(devices, count) result(status) &
        bind(C, name="tcgemm_set_host_devices")
      import :: c_int, c_int32_t
      integer(c_int32_t), intent(in) :: devices(*)
      integer(c_int32_t), value :: count
      integer(c_int) :: status
    end function c_tcgemm_set_host_devices

    function c_tcgemm_get_host_devices(devices, capacity, count) result(status) &
        bind(C, name="tcgemm_get_host_devices")
      import :: c_int, c_int32_t
      integer(c_int32_t), intent(out) :: devices(*)
      integer(c_int32_t), value :: capacity
      integer(c_int32_t), intent(out) :: count
      integer(c_int) :: status
    end function c_tcgemm_get_host_devices

    ! ---- device-memory helpers ----------------------------------------------------------------
    function c_tcgemm_malloc(device_ptr, bytes) result(status) bind(C, name="tcgemm_malloc")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), intent(out) :: device_ptr
      integer(c_int64_t), value :: bytes
      integer(c_int) :: status
    end function c_tcgemm_malloc

    function c_tcgemm_free(device_ptr) result(status) bind(C, name="tcgemm_free")
      import :: c_int, c_ptr
      type(c_ptr), value :: device_ptr
      integer(c_int) :: status
    end function c_tcgemm_free

    function c_tcgemm_memcpy_to_device(device_dst, host_src, bytes) result(status) &
        bind(C, name="tcgemm_memcpy_to_device")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: device_dst
      type(c_ptr), value :: host_src
      integer(c_int64_t), value :: bytes
      integer(c_int) :: status
    end function c_tcgemm_memcpy_to_device

    function c_tcgemm_memcpy_to_host(host_dst, device_src, bytes) result(status) &
        bind(C, name="tcgemm_memcpy_to_host")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: host_dst
      type(c_ptr), value :: device_src
      integer(c_int64_t), value :: bytes
      integer(c_int) :: status
    end function c_tcgemm_memcpy_to_host

    function c_tcgemm_synchronize(stream) result(status) bind(C, name="tcgemm_synchronize")
      import :: c_int, c_ptr
      type(c_ptr), value :: stream
      integer(c_int) :: status
    end function c_tcgemm_synchronize

    ! ---- streams ------------------------------------------------------------------------------
    function c_tcgemm_stream_create(stream) result(status) bind(C, name="tcgemm_stream_create")
      import :: c_int, c_ptr
      type(c_ptr), intent(out) :: stream
      integer(c_int) :: status
    end function c_tcgemm_stream_create

    function c_tcgemm_stream_destroy(stream) result(status) bind(C, name="tcgemm_stream_destroy")
      import :: c_int, c_ptr
      type(c_ptr), value :: stream
      integer(c_int) :: status
    end function c_tcgemm_stream_destroy

    function c_tcgemm_stream_synchronize(stream) result(status) &
        bind(C, name="tcgemm_stream_synchronize")
      import :: c_int, c_ptr
      type(c_ptr), value :: stream
      integer(c_int) :: status
    end function c_tcgemm_stream_synchronize

    ! ---- libc, to measure the C strings the library returns -----------------------------------
    function c_strlen(str) result(length) bind(C, name="strlen")
      import :: c_ptr, c_size_t
      type(c_ptr), value :: str
      integer(c_size_t) :: length
    end function c_strlen
  end interface
end module tcgemm_c
