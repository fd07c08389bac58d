extern void reach_error(void);
int main(int argc, char **argv) {
  if (argc < 1) reach_error();
  return 0;
}
