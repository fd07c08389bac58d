// n <= 100 000 nondet cells of a malloc'd block set to 1, then summed: the sum is n (TRUE).
// The sum loop's invariant sum == i needs what it reads: \forall k: k < n ==> a[k] == 1, a fact
// proven about every cell and used at the read of a[i]
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n <= 0 || n > 100000) return 0;
  int *a = malloc(sizeof(int) * n);
  for (int i = 0; i < n; i++) a[i] = 1;
  int sum = 0;
  for (int i = 0; i < n; i++) sum = sum + a[i];
  if (sum != n) reach_error();
  return 0;
}
