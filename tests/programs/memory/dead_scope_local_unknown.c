// a pointer to a block's local used after the block ended (undefined behaviour at line 12)
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
  int *p = 0;
  int n = __VERIFIER_nondet_int();
  {
    int x = n;
    p = &x;
    if (*p != n) reach_error();
  }
  int y = *p;
  if (y != n) reach_error();
  return 0;
}
