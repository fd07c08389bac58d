extern void reach_error(void);
int main(int argc, char **argv) {
  if (argv[argc] != 0) reach_error();
  for (int i = 0; i < argc && i < 3; i++) {
    if (argv[i] == 0) reach_error();
  }
  return 0;
}
