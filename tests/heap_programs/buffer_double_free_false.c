// the 31st buffer is freed twice (valid-memsafety: invalid free)
extern void *malloc(unsigned long);
extern void free(void *);
int main(void) {
  for (int i = 0; i < 100; i++) {
    int *p = malloc(sizeof(int) * 4);
    p[0] = i;
    free(p);
    if (i == 30) free(p);
  }
  return 0;
}
