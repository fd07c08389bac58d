// as fpi_sum_true.c, but cell n / 2 gets 2: the sum is n + 1 (FALSE for every n)
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n <= 0 || n > 100000) return 0;
  int *a = malloc(sizeof(int) * n);
  for (int i = 0; i < n; i++) a[i] = i == n / 2 ? 2 : 1;
  int sum = 0;
  for (int i = 0; i < n; i++) sum = sum + a[i];
  if (sum != n) reach_error();
  return 0;
}
