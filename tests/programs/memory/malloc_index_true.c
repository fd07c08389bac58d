// p = malloc(n * sizeof(int)) for a nondet n (0..5000), p[i] = i, then p[j] == j for every j < n: TRUE
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 5000) return 0;
  int *p = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) p[i] = i;
  for (int j = 0; j < n; j++)
    if (p[j] != j) reach_error();
  return 0;
}
