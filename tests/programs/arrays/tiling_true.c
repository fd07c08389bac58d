// 1 000 tiles of two cells each filled with v, then all 2 000 cells checked: TRUE
// (the fill loop's invariant: \forall k: k < 2*i ==> a[k] == v)
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int a[2000];
int main() {
  int v = __VERIFIER_nondet_int();
  for (int i = 0; i < 1000; i++) { a[2 * i] = v; a[2 * i + 1] = v; }
  for (int i = 0; i < 2000; i++)
    if (a[i] != v) reach_error();
  return 0;
}
