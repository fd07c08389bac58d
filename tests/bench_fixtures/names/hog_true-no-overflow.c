// fake-checker no-overflow: hog
int main(void) { return 0; }
