#include <doctest/doctest.h>

#include "gputco/catalog/price_schedule.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

using namespace gputco;
using doctest::Approx;

TEST_CASE("dated changes set the level from their month on; launches multiply it from theirs") {
    PriceModel model;
    model.start = "2024-11";
    model.changes.push_back({.date = "2025-06", .on_demand_factor = 0.67, .spot_factor = 1, .reserved_factor = 0.7, .source = ""});
    model.changes.push_back({.date = "2024-01", .on_demand_factor = 0.9, .spot_factor = 1, .reserved_factor = 1, .source = ""});
    const PricePaths paths = price_paths(model, Horizon::years(1), 5, 1);
    CHECK(paths.on_demand.cols() == 1);  // no launches: one shared column
    CHECK(paths.on_demand(0, 0) == 0.9);  // the 2024-01 change already holds in 2024-11
    CHECK(paths.on_demand(6, 0) == 0.9);  // 2025-05
    CHECK(paths.on_demand(7, 0) == 0.67); // 2025-06
    CHECK(paths.reserved(7, 0) == 0.7);
    CHECK(month_index("2024-11", "2025-06", "d") == 7);

    PriceModel launch;
    launch.launches.push_back({.probability = 0.5, .first_month = 2, .last_month = 8, .on_demand_factor = 0.8,
                               .spot_factor = 0.5, .reserved_factor = 0.9});
    const std::size_t n = 20000;
    const PricePaths p = price_paths(launch, Horizon::years(1), n, 4);
    double launched = 0;
    for (std::size_t f = 0; f < n; ++f) {
        const int month = p.launch_month(0, Eigen::Index(f));
        if (month < 0) {
            CHECK(p.on_demand(11, Eigen::Index(f)) == 1.0);
            continue;
        }
        launched += 1;
        REQUIRE((month >= 2 && month <= 8));
        CHECK(p.on_demand(month - 1, Eigen::Index(f)) == 1.0);
        CHECK(p.on_demand(month, Eigen::Index(f)) == 0.8);
        CHECK(p.spot(11, Eigen::Index(f)) == 0.5);
    }
    CHECK(std::abs(launched / double(n) - 0.5) <= 4.0 * std::sqrt(0.25 / double(n)));
}

TEST_CASE("the June 2025 AWS cut, from the catalog's rows before and after") {
    const Catalog& catalog = Catalog::builtin();
    const PriceChange p4d = aws_june_2025_price_cut(catalog.offering("aws", "p4d.24xlarge", "us-east-1"));
    CHECK(p4d.on_demand_factor == Approx(21.96 / 32.7726));  // $32.77 → $21.96/h
    const PriceChange p5 = aws_june_2025_price_cut(catalog.offering("aws", "p5.48xlarge", "us-east-1"));
    CHECK(p5.on_demand_factor == Approx(55.04 / 98.32));
    CHECK(p5.spot_factor == 1.0);
    CHECK_THROWS_WITH_AS(aws_june_2025_price_cut(catalog.offering("aws", "p3.2xlarge", "us-east-1")),
                         "offering = \"aws/us-east-1/p3.2xlarge\": the June 2025 cut is recorded for "
                         "aws/us-east-1 p4d.24xlarge, p4de.24xlarge, p5.48xlarge and p5en.48xlarge only",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(aws_june_2025_price_cut(catalog.offering("aws", "p5.48xlarge", "us-east-1"), 2),
                         "term_years = 2: must be 0, 1 or 3", InvalidInput);
}

TEST_CASE("the June 2025 AWS cut per purchase option, as AWS published it") {
    const Catalog& catalog = Catalog::builtin();
    auto cut = [&](const char* instance, int term) {
        return aws_june_2025_price_cut(catalog.offering("aws", instance, "us-east-1"), term);
    };
    // On demand: -33% P4d/P4de, -44% P5, -25% P5en (the catalog's prices, rounded by AWS).
    CHECK(cut("p4de.24xlarge", 0).on_demand_factor == Approx(0.67));
    CHECK(cut("p5en.48xlarge", 0).on_demand_factor == Approx(63.296 / 84.8));
    // Savings Plans by their own percentages per term.
    CHECK(cut("p4d.24xlarge", 1).reserved_factor == Approx(1 - 0.31));  // EC2 Instance SP 1 yr
    CHECK(cut("p4d.24xlarge", 3).reserved_factor == Approx(1 - 0.25));  // EC2 Instance SP 3 yr
    CHECK(cut("p5.48xlarge", 3).reserved_factor == Approx(1 - 0.45));
    CHECK(cut("p5.48xlarge", 1).reserved_factor == Approx(1 - 0.44));   // no EC2 Instance figure: Compute SP 1 yr
    CHECK(cut("p5en.48xlarge", 3).reserved_factor == Approx(1 - 0.26));
    CHECK(cut("p5en.48xlarge", 1).reserved_factor == Approx(1 - 0.25));
    // No term: the on-demand ratio, and the source says so.
    const PriceChange plain = cut("p5.48xlarge", 0);
    CHECK(plain.reserved_factor == plain.on_demand_factor);
    CHECK(plain.source.find("no term given") != std::string::npos);
    CHECK(cut("p5.48xlarge", 3).source.find("45% lower (EC2 Instance Savings Plan") != std::string::npos);
    REQUIRE(aws_june_2025_cut_table().size() == 4);
    for (const AwsJune2025Cut& row : aws_june_2025_cut_table()) {
        CAPTURE(row.instance_type);
        const Offering& o = catalog.offering("aws", row.instance_type, "us-east-1");
        CHECK(1 - o.on_demand_hourly / o.price_at(Date{2025, 5, 31}).on_demand_hourly == Approx(row.on_demand).epsilon(0.02));
    }
}

TEST_CASE("bad price models name the field") {
    PriceModel undated;
    undated.changes.push_back({.date = "2025-06", .on_demand_factor = 0.5, .spot_factor = 1, .reserved_factor = 1, .source = ""});
    CHECK_THROWS_WITH_AS(price_paths(undated, Horizon::years(1), 1, 1),
                         "price_model.start = \"\": must be set (YYYY-MM) when changes are dated", InvalidInput);
    undated.start = "2025-01";
    undated.changes[0].date = "June 2025";
    CHECK_THROWS_WITH_AS(price_paths(undated, Horizon::years(1), 1, 1),
                         "price_model.changes[0].date = \"June 2025\": must be a month written YYYY-MM", InvalidInput);
    undated.changes[0] = {.date = "2025-06", .on_demand_factor = 0, .spot_factor = 1, .reserved_factor = 1, .source = ""};
    CHECK_THROWS_WITH_AS(price_paths(undated, Horizon::years(1), 1, 1),
                         "price_model.changes[0].on_demand_factor = 0: must be finite and > 0", InvalidInput);
    PriceModel late;
    late.launches.push_back({.probability = 0.5, .first_month = 3, .last_month = 12});
    CHECK_THROWS_WITH_AS(price_paths(late, Horizon::years(1), 1, 1),
                         "price_model.launches[0].last_month = 12: must be in [first_month, 12) (the horizon's months)",
                         InvalidInput);
}

TEST_CASE("the June 2025 AWS cut cell for cell: each purchase option moves by its own percentage") {
    // AWS News Blog, 2025-06-05, "Announcing up to 45% price reduction for Amazon EC2 NVIDIA
    // GPU-accelerated instances", re-typed here: reduction in % per purchase option, -1 for "–".
    //                    on demand, EC2 Instance SP 1y, 3y, Compute SP 1y, 3y
    struct Row {
        const char* instance;
        std::array<double, 5> cells;
    };
    const std::array<Row, 4> blog{{{"p4d.24xlarge", {33, 31, 25, 31, -1}},
                                   {"p4de.24xlarge", {33, 31, 25, 31, -1}},
                                   {"p5.48xlarge", {44, -1, 45, 44, 25}},
                                   {"p5en.48xlarge", {25, -1, 26, 25, -1}}}};
    const Catalog& catalog = Catalog::builtin();
    const std::array<std::pair<SavingsPlanType, int>, 4> options{{{SavingsPlanType::aws_ec2_instance, 1},
                                                                  {SavingsPlanType::aws_ec2_instance, 3},
                                                                  {SavingsPlanType::aws_compute, 1},
                                                                  {SavingsPlanType::aws_compute, 3}}};
    for (const Row& row : blog) {
        CAPTURE(row.instance);
        const auto table_row = std::find_if(aws_june_2025_cut_table().begin(), aws_june_2025_cut_table().end(),
                                            [&](const AwsJune2025Cut& r) { return r.instance_type == row.instance; });
        REQUIRE(table_row != aws_june_2025_cut_table().end());
        const Offering& o = catalog.offering("aws", row.instance, "us-east-1");
        // On demand: the cell, and the catalog's own prices before and after (AWS rounds its prices).
        CHECK(*aws_june_2025_reduction(*table_row, std::nullopt, 0) == Approx(row.cells[0] / 100));
        CHECK(1 - aws_june_2025_price_cut(o, SavingsPlanType::aws_compute, 1).on_demand_factor ==
              Approx(row.cells[0] / 100).epsilon(0.02));
        for (std::size_t k = 0; k < options.size(); ++k) {
            // Named copies, not a structured binding: clang 14 cannot capture those in CAPTURE's lambda.
            const SavingsPlanType type = options[k].first;
            const int term = options[k].second;
            CAPTURE(to_text(type));
            CAPTURE(term);
            const double cell = row.cells[k + 1];
            if (cell < 0) {
                CHECK_FALSE(aws_june_2025_reduction(*table_row, type, term).has_value());
                CHECK_THROWS_WITH_AS(aws_june_2025_price_cut(o, type, term),
                                     fmt::format("type = \"{}\": AWS published no {}-year {} Savings Plan reduction for {} "
                                                 "in June 2025",
                                                 to_text(type), term,
                                                 type == SavingsPlanType::aws_ec2_instance ? "EC2 Instance" : "Compute",
                                                 row.instance)
                                         .c_str(),
                                     InvalidInput);
            } else {
                CHECK(*aws_june_2025_reduction(*table_row, type, term) == Approx(cell / 100));
                const PriceChange cut = aws_june_2025_price_cut(o, type, term);
                CHECK(cut.reserved_factor == Approx(1 - cell / 100));
                CHECK(cut.date == "2025-06");
                CHECK(cut.spot_factor == 1.0);
            }
        }
    }
    // P5 shows why one factor per term is not enough: its 3-year EC2 Instance plans fell 45%, its 3-year
    // Compute plans 25%, on demand 44%.
    const Offering& p5 = catalog.offering("aws", "p5.48xlarge", "us-east-1");
    CHECK(aws_june_2025_price_cut(p5, SavingsPlanType::aws_ec2_instance, 3).reserved_factor == Approx(0.55));
    CHECK(aws_june_2025_price_cut(p5, SavingsPlanType::aws_compute, 3).reserved_factor == Approx(0.75));
    CHECK_THROWS_WITH_AS(aws_june_2025_price_cut(p5, SavingsPlanType::azure_compute, 1),
                         "type = \"azure_compute\": the June 2025 table has aws_ec2_instance and aws_compute Savings "
                         "Plans only",
                         InvalidInput);
}
