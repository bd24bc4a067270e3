// Graph-timed GPU time per call (20 calls per graph, median of 15 launches) of tcgemm_dgemm (auto and forced
// sm90 tiles) and cublasDgemm, for shapes with explicit leading dimensions: MxNxK[:lda:ldb:ldc][:TN].
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <tcgemm/tcgemm.h>

#include "graph_timing.hpp"
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <vector>
int main(int argc,char**argv){
  cudaStream_t s; cudaStreamCreate(&s); cublasHandle_t h; cublasCreate(&h); cublasSetStream(h,s);
  const size_t maxe = size_t(1)<<26; double *A,*B,*C; cudaMalloc(&A,maxe*8); cudaMalloc(&B,maxe*8); cudaMalloc(&C,maxe*8);
  { std::vector<double> hA(maxe); std::mt19937 g(1); std::uniform_real_distribution<double> u(-1,1); for(auto&x:hA)x=u(g);
    cudaMemcpy(A,hA.data(),maxe*8,cudaMemcpyHostToDevice); cudaMemcpy(B,hA.data(),maxe*8,cudaMemcpyHostToDevice); }
  for(int i=1;i<argc;i++){
    long m,n,k,lda=0,ldb=0,ldc=0; char ta='N',tb='N'; char form[8]={0};
    int got=sscanf(argv[i],"%ldx%ldx%ld:%ld:%ld:%ld:%2s",&m,&n,&k,&lda,&ldb,&ldc,form);
    if(got>=7){ta=form[0]; tb=form[1];}
    if(!lda) lda= ta=='N'?m:k; if(!ldb) ldb= tb=='N'?k:n; if(!ldc) ldc=m;
    double one=1,zero=0;
    auto cub=[&]{cublasDgemm(h,ta=='N'?CUBLAS_OP_N:CUBLAS_OP_T,tb=='N'?CUBLAS_OP_N:CUBLAS_OP_T,m,n,k,&one,A,lda,B,ldb,&zero,C,ldc);};
    auto tc=[&]{tcgemm_dgemm(ta,tb,m,n,k,1.0,A,lda,B,ldb,0.0,C,ldc,s);};
    double gc=graph_us(cub,s), gt=graph_us(tc,s);
    tcgemm_plan pl; tcgemm_dgemm_plan(ta,tb,m,n,k,&pl);
    printf("%s: cublas %.2f tcgemm %.2f ratio %.3f  [%s]\n",argv[i],gc,gt,gc/gt,pl.summary);
    int tiles[][3]={{32,32,32},{32,64,32},{64,64,16},{128,64,16},{64,128,32}};
    for(auto&t:tiles) for(int ks:{1,2}){
      tcgemm_config c{}; c.family=TCGEMM_FAMILY_SM90_MMA; c.tile_m=t[0]; c.tile_n=t[1]; c.tile_k=t[2]; c.stages=0; c.k_splits=ks;
      c.stages = (t[0]==64&&t[1]==64)?4:3;
      auto f=[&]{tcgemm_dgemm_config(&c,ta,tb,m,n,k,1.0,A,lda,B,ldb,0.0,C,ldc,s);};
      printf("    %dx%dx%d ks%d: %.2f\n",t[0],t[1],t[2],ks,graph_us(f,s));
    }
  }
}
