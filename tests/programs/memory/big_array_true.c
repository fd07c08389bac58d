// a 100 000-element array (beyond the exact bound: contents not tracked): the loop stays in bounds and ends with i == n
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int a[100000];
int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 100000) return 0;
  int i;
  for (i = 0; i < n; i++) a[i] = i;
  if (i != n) reach_error();
  return 0;
}
