extern void reach_error(void);
int main(int argc, char *argv[]) {
  if (argc > 1 && argv[1][0] == 'x') {
    reach_error();
  }
  return 0;
}
