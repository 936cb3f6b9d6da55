/* The CUDA instantiation of the integer and boolean matrix product (matmul.h): the "matmul" module
 * of the embedded fatbin (float and complex products are cuBLAS's). */
#include "matmul.h"
