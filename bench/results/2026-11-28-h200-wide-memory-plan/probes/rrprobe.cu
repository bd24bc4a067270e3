// Round-robin event timing of several calls: each argument is LIB:MxNxK[:lda:ldb:ldc], LIB t (tcgemm) or c
// (cuBLAS). 30 warm-up rounds, then 25 rounds of every call between its own events; median per call.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <tcgemm/tcgemm.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <vector>
int main(int argc,char**argv){
  if(getenv("SHOWBW")){int c=0,b=0; cudaDeviceGetAttribute(&c,cudaDevAttrMemoryClockRate,0); cudaDeviceGetAttribute(&b,cudaDevAttrGlobalMemoryBusWidth,0); printf("mem clock %d kHz bus %d bits -> %.3f TB/s (%s)\n",c,b,2.0*c*1e3*b/8/1e12,cudaGetErrorString(cudaGetLastError()));}
  cudaStream_t s; cudaStreamCreate(&s); cublasHandle_t h; cublasCreate(&h); cublasSetStream(h,s);
  const size_t maxe = size_t(80)<<20, chunk = size_t(8)<<20; double *A,*B,*C; cudaMalloc(&A,maxe*8); cudaMalloc(&B,maxe*8); cudaMalloc(&C,maxe*8);
  { std::vector<double> hA(chunk+1000); std::mt19937 g(1); std::uniform_real_distribution<double> u(-1,1);
    for(double* dst: {A,B}){ for(auto&x:hA)x=u(g); for(size_t o=0,i=0;o<maxe;o+=chunk,i++) cudaMemcpy(dst+o,hA.data()+(i*7)%1000,std::min(chunk,maxe-o)*8,cudaMemcpyHostToDevice);} }
  std::vector<std::function<void()>> calls; std::vector<const char*> names;
  const int warm = getenv("WARM")?atoi(getenv("WARM")):30, reps = getenv("REPS")?atoi(getenv("REPS")):25;
  for(int i=1;i<argc;i++){
    long m,n,k,lda=0,ldb=0,ldc=0; char lib; char form[8]={0}; char ta='N',tb='N';
    int tm=0,tn=0,tk=0,st=0,ks=0; const char* spec=argv[i];
    if(spec[0]=='f'){ sscanf(spec+1,"%d.%d.%d.%d.%d",&tm,&tn,&tk,&st,&ks); spec=strchr(spec,':')-1; }
    int got=sscanf(spec,"%c:%ldx%ldx%ld:%ld:%ld:%ld:%2s",&lib,&m,&n,&k,&lda,&ldb,&ldc,form);
    if(got>=8){ta=form[0];tb=form[1];}
    if(!lda) lda= ta=='N'?m:k; if(!ldb) ldb= tb=='N'?k:n; if(!ldc) ldc=m;
    static double one=1,zero=0;
    if(lib=='c') calls.push_back([=]{cublasDgemm(h,ta=='N'?CUBLAS_OP_N:CUBLAS_OP_T,tb=='N'?CUBLAS_OP_N:CUBLAS_OP_T,m,n,k,&one,A,lda,B,ldb,&zero,C,ldc);});
    else if(tm){ tcgemm_config c{}; c.family=TCGEMM_FAMILY_SM90_MMA; c.tile_m=tm; c.tile_n=tn; c.tile_k=tk; c.stages=st; c.k_splits=ks;
      calls.push_back([=]{tcgemm_config cc=c; tcgemm_status e=tcgemm_dgemm_config(&cc,ta,tb,m,n,k,1.0,A,lda,B,ldb,0.0,C,ldc,s); if(e) {printf("config error %d\n",e); exit(1);} }); }
    else calls.push_back([=]{tcgemm_dgemm(ta,tb,m,n,k,1.0,A,lda,B,ldb,0.0,C,ldc,s);});
    names.push_back(argv[i]);
  }
  const size_t nc=calls.size();
  for(int w=0;w<warm;w++) for(auto&c:calls) c();
  std::vector<cudaEvent_t> ev(2*nc*reps); for(auto&e:ev) cudaEventCreate(&e);
  for(int r=0;r<reps;r++) for(size_t c=0;c<nc;c++){ cudaEventRecord(ev[2*(r*nc+c)],s); calls[c](); cudaEventRecord(ev[2*(r*nc+c)+1],s);} 
  cudaStreamSynchronize(s);
  for(size_t c=0;c<nc;c++){ std::vector<float> t; for(int r=0;r<reps;r++){float x; cudaEventElapsedTime(&x,ev[2*(r*nc+c)],ev[2*(r*nc+c)+1]); t.push_back(x*1e3f);} std::sort(t.begin(),t.end());
    printf("%-36s median %9.2f us  min %9.2f  max %9.2f\n",names[c],t[t.size()/2],t[0],t.back()); }
  printf("last error: %s\n", cudaGetErrorString(cudaGetLastError()));
}
