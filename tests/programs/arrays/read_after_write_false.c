// every cell is 1 at the head of the second loop, every time (\forall k: k < n ==> a[k] == 1),
// but the loop writes 7 through a[j], j == i (which the compiler cannot see), reads a[i], and
// writes 1 back: the sum is 7*n, not n (FALSE). A fact about the cells at the loop's head must
// not restrict a read that follows a write in the same step (llumc.invariants.instances): with
// it, sum == i would be "proven"
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n <= 0 || n > 10) return 0;
  int *a = malloc(sizeof(int) * n);
  for (int i = 0; i < n; i++) a[i] = 1;
  int sum = 0;
  for (int i = 0; i < n; i++) {
    int j = __VERIFIER_nondet_int();
    if (j != i) return 0;
    a[j] = 7;
    sum = sum + a[i];
    a[j] = 1;
  }
  if (sum != n) reach_error();
  return 0;
}
