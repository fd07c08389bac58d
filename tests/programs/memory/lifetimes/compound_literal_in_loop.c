// a compound literal written and read within each iteration: TRUE (also under valid-memsafety)
extern void reach_error(void);
int main(void) {
  int total = 0;
  for (int i = 0; i < 3; i++) {
    int *q = (int[]){i, i + 1};
    total += q[1] - q[0];
  }
  if (total != 3) reach_error();
  return 0;
}
