// as malloc_index_true.c, but p[i] = i + 1 from i == 6 on: FALSE for n >= 7
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 5000) return 0;
  int *p = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) p[i] = i < 6 ? i : i + 1;
  for (int j = 0; j < n; j++)
    if (p[j] != j) reach_error();
  return 0;
}
