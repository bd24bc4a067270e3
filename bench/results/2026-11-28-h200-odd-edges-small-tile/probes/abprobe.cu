// A/B of the plan: graph-timed tcgemm_dgemm (the current plan), a forced configuration (the previous plan's
// pick) and cublasDgemm. Args: m,n,k,tm,tn,tk,stages,ks,form
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <tcgemm/tcgemm.h>

#include "graph_timing.hpp"
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <vector>
int main(int argc,char**argv){
  cudaStream_t s; cudaStreamCreate(&s); cublasHandle_t h; cublasCreate(&h); cublasSetStream(h,s);
  const size_t maxe = size_t(1)<<25; double *A,*B,*C; cudaMalloc(&A,maxe*8); cudaMalloc(&B,maxe*8); cudaMalloc(&C,maxe*8);
  { std::vector<double> hA(maxe); std::mt19937 g(1); std::uniform_real_distribution<double> u(-1,1); for(auto&x:hA)x=u(g);
    cudaMemcpy(A,hA.data(),maxe*8,cudaMemcpyHostToDevice); cudaMemcpy(B,hA.data(),maxe*8,cudaMemcpyHostToDevice); }
  for(int i=1;i<argc;i++){
    long m,n,k; int tm,tn,tk,st,ks; char f[3]={'N','N',0};
    if(sscanf(argv[i],"%ld,%ld,%ld,%d,%d,%d,%d,%d,%2s",&m,&n,&k,&tm,&tn,&tk,&st,&ks,f)<8) continue;
    char ta=f[0], tb=f[1]; long lda= ta=='N'?m:k, ldb= tb=='N'?k:n, ldc=m; double one=1,zero=0;
    auto cub=[&]{cublasDgemm(h,ta=='N'?CUBLAS_OP_N:CUBLAS_OP_T,tb=='N'?CUBLAS_OP_N:CUBLAS_OP_T,m,n,k,&one,A,lda,B,ldb,&zero,C,ldc);};
    auto tc=[&]{tcgemm_dgemm(ta,tb,m,n,k,1.0,A,lda,B,ldb,0.0,C,ldc,s);};
    tcgemm_config c{}; c.family=TCGEMM_FAMILY_SM90_MMA; c.tile_m=tm; c.tile_n=tn; c.tile_k=tk; c.stages=st; c.k_splits=ks;
    auto old=[&]{tcgemm_dgemm_config(&c,ta,tb,m,n,k,1.0,A,lda,B,ldb,0.0,C,ldc,s);};
    double gc=graph_us(cub,s), gt=graph_us(tc,s), go=graph_us(old,s);
    tcgemm_plan pl; tcgemm_dgemm_plan(ta,tb,m,n,k,&pl);
    printf("%ldx%ldx%ld %s: cublas %.2f new %.2f (%.3f) old %.2f (%.3f)  new/old %.3f  [%dx%dx%d ks%ld]\n",m,n,k,f,gc,gt,gc/gt,go,gc/go,gt/go,pl.config.tile_m,pl.config.tile_n,pl.config.tile_k,(long)pl.k_slices);
  }
}
