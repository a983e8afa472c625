#pragma once
// The benchmark CSV files of data/throughput/, embedded by CMake (throughput_data.cpp.in).
#include <string_view>

namespace gputco::embedded {
extern const std::string_view lambda_fp16_v1, lambda_fp32_v1, lambda_fp16_v1v2, lambda_fp32_v1v2;
}
