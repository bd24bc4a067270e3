// Small-shape latency probe (not part of the project): host enqueue cost per call, GPU time per call in a
// back-to-back loop, and single-call event time (interleaved with cuBLAS), for tcgemm_dgemm, forced sm90
// configurations, and cublasDgemm.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <tcgemm/tcgemm.h>

#include "graph_timing.hpp"
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <vector>
#define CK(x) do{auto e=(x); if(e!=cudaSuccess){printf("%s: %s\n",#x,cudaGetErrorString(e)); exit(1);}}while(0)
struct R{double host_us, loop_us, single_us;};
R measure(std::function<void()> f, cudaStream_t s){
  for(int i=0;i<50;i++) f(); CK(cudaStreamSynchronize(s));
  const int N=200; std::vector<double> hs;
  for(int rep=0;rep<5;rep++){ auto t0=std::chrono::steady_clock::now(); for(int i=0;i<N;i++) f();
    auto t1=std::chrono::steady_clock::now(); CK(cudaStreamSynchronize(s)); hs.push_back(std::chrono::duration<double,std::micro>(t1-t0).count()/N);}
  cudaEvent_t a,b; cudaEventCreate(&a); cudaEventCreate(&b); std::vector<double> ls;
  for(int rep=0;rep<5;rep++){ cudaEventRecord(a,s); for(int i=0;i<N;i++) f(); cudaEventRecord(b,s); CK(cudaEventSynchronize(b)); float ms; cudaEventElapsedTime(&ms,a,b); ls.push_back(ms*1000/N);}
  std::vector<double> ss;
  for(int rep=0;rep<41;rep++){ CK(cudaStreamSynchronize(s)); cudaEventRecord(a,s); f(); cudaEventRecord(b,s); CK(cudaEventSynchronize(b)); float ms; cudaEventElapsedTime(&ms,a,b); ss.push_back(ms*1000);}
  return {median_of(hs),median_of(ls),median_of(ss)};
}
__global__ void empty_kernel(){}
template<class F> double host_cost(F f){ for(int i=0;i<100;i++) f(); auto t0=std::chrono::steady_clock::now(); for(int i=0;i<2000;i++) f(); auto t1=std::chrono::steady_clock::now(); return std::chrono::duration<double,std::micro>(t1-t0).count()/2000; }
int main(int argc,char**argv){
  cudaStream_t s; CK(cudaStreamCreate(&s)); cublasHandle_t h; cublasCreate(&h); cublasSetStream(h,s);
  int64_t maxn=1100; size_t bytes=maxn*maxn*8; double *A,*B,*C; CK(cudaMalloc(&A,bytes)); CK(cudaMalloc(&B,bytes)); CK(cudaMalloc(&C,bytes));
  std::vector<double> hA(maxn*maxn); std::mt19937 g(1); std::uniform_real_distribution<double> u(-1,1); for(auto&x:hA)x=u(g);
  CK(cudaMemcpy(A,hA.data(),bytes,cudaMemcpyHostToDevice)); CK(cudaMemcpy(B,hA.data(),bytes,cudaMemcpyHostToDevice));
  { int d; printf("host: cudaGetDevice %.3f us\n", host_cost([&]{cudaGetDevice(&d);}));
    printf("host: cudaGetDeviceCount %.3f us\n", host_cost([&]{cudaGetDeviceCount(&d);}));
    printf("host: cudaGetLastError %.3f us\n", host_cost([&]{(void)cudaGetLastError();}));
    tcgemm_plan pl; printf("host: tcgemm_dgemm_plan %.3f us\n", host_cost([&]{tcgemm_dgemm_plan('N','N',256,256,256,&pl);}));
    printf("host: quick-return tcgemm_dgemm %.3f us\n", host_cost([&]{tcgemm_dgemm('N','N',256,256,256,0.0,A,256,B,256,1.0,C,256,s);}));
    printf("host: empty kernel launch %.3f us\n", host_cost([&]{empty_kernel<<<1,32,0,s>>>();})); cudaStreamSynchronize(s);
    // clocks up: 200 ms of work
    auto t0=std::chrono::steady_clock::now(); while(std::chrono::duration<double>(std::chrono::steady_clock::now()-t0).count()<0.3){ tcgemm_dgemm('N','N',1024,1024,1024,1.0,A,1024,B,1024,0.0,C,1024,s);} cudaStreamSynchronize(s);
  }
  for(int i=1;i<argc;i++){
    int64_t m,n,k; char spec[64]={0}; if(sscanf(argv[i],"%ldx%ldx%ld%63s",&m,&n,&k,spec)<3) continue;
    double one=1, zero=0;
    auto cub=[&]{cublasDgemm(h,CUBLAS_OP_N,CUBLAS_OP_N,m,n,k,&one,A,m,B,k,&zero,C,m);};
    auto tc=[&]{ if(tcgemm_dgemm('N','N',m,n,k,1.0,A,m,B,k,0.0,C,m,s)!=TCGEMM_SUCCESS){{static int n=0; if(n++<3) printf("fail %s\n",tcgemm_last_error());}} };
    R rc=measure(cub,s), rt=measure(tc,s);
    printf("%ldx%ldx%ld graph per call: cublas %.2f tcgemm %.2f\n",m,n,k,graph_us(cub,s),graph_us(tc,s));
    printf("%ldx%ldx%ld cublas host %.2f loop %.2f single %.2f | tcgemm host %.2f loop %.2f single %.2f\n",m,n,k,rc.host_us,rc.loop_us,rc.single_us,rt.host_us,rt.loop_us,rt.single_us);
    // forced configurations: tiles x splits
    int tiles[][3]={{32,64,32},{64,64,16},{128,64,16},{64,128,32}};
    for(auto&t:tiles) for(int ks: {1,2,4}){
      tcgemm_config c{}; c.family=TCGEMM_FAMILY_SM90_MMA; c.tile_m=t[0]; c.tile_n=t[1]; c.tile_k=t[2]; c.stages=3; c.k_splits=ks;
      auto f=[&]{ if(tcgemm_dgemm_config(&c,'N','N',m,n,k,1.0,A,m,B,k,0.0,C,m,s)!=TCGEMM_SUCCESS){{static int n=0; if(n++<3) printf("fail cfg %s\n",tcgemm_last_error());}} };
      R r=measure(f,s); double gr=graph_us(f,s);
      printf("   %dx%dx%d ks %d: host %.2f loop %.2f single %.2f graph %.2f\n",t[0],t[1],t[2],ks,r.host_us,r.loop_us,r.single_us,gr);
    }
  }
}
