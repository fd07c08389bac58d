// perm[i] = 9 - i is a valid index of data: data[perm[k]] reads the abstract `perm` once, so
// the write's fault edge is restricted to the tracked cell and every access is proven valid
// without refinement
extern int __VERIFIER_nondet_int(void);
int perm[10];
int data[10];
int main() {
  for (int i = 0; i < 10; i++) perm[i] = 9 - i;
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k >= 10) return 0;
  data[perm[k]] = 1;
  return 0;
}
