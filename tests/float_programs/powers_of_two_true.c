// Sums of powers of two below 2^24 are exact in binary32.
extern void reach_error(void);

int main(void) {
    float sum = 0.0f;
    int power = 1;
    for (int i = 0; i < 20; i++) {
        sum += (float)power;
        power *= 2;
    }
    if (sum != 1048575.0f) reach_error();
    return 0;
}
