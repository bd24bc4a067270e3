// Runs one product of each library a few times (for ncu).
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <tcgemm/tcgemm.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <random>
int main(int argc,char**argv){
  int64_t m=atol(argv[1]),n=atol(argv[2]),k=atol(argv[3]); int64_t lda=m, ldb=k;
  double *A,*B,*C; cudaMalloc(&A,m*k*8+64); cudaMalloc(&B,k*n*8+64); cudaMalloc(&C,m*n*8+64);
  std::vector<double> h(std::max(m*k,k*n)); std::mt19937 g(1); std::uniform_real_distribution<double> u(-1,1); for(auto&x:h)x=u(g);
  cudaMemcpy(A,h.data(),m*k*8,cudaMemcpyHostToDevice); cudaMemcpy(B,h.data(),k*n*8,cudaMemcpyHostToDevice);
  cublasHandle_t hd; cublasCreate(&hd); double one=1,zero=0;
  for(int i=0;i<3;i++){ cublasDgemm(hd,CUBLAS_OP_N,CUBLAS_OP_N,m,n,k,&one,A,lda,B,ldb,&zero,C,m); tcgemm_dgemm('N','N',m,n,k,1.0,A,lda,B,ldb,0.0,C,m,0);}
  cudaDeviceSynchronize(); printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}
