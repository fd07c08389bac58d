// a pointer to a block's variable-length array used after the block ended (undefined
// behaviour at line 16: the array's scope ends at its llvm.stackrestore)
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 8) return 0;
  int *p;
  {
    int a[n];
    a[0] = 1;
    p = a;
  }
  int b[100];
  b[0] = 5;
  if (*p + b[0] == 0) reach_error();
  return 0;
}
