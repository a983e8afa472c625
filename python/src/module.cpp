// gputco._core: the compiled half of the gputco package. A table of contents: each concern
// registers its own functions and classes (see register_*.cpp); the Python package re-exports them.
#include "register.hpp"

PYBIND11_MODULE(_core, m) {
    m.doc() = "Compiled core of gputco (import gputco instead)";
    m.attr("__version__") = GPUTCO_VERSION;  // CMakeLists.txt's project version
    using namespace gputco::python;
    register_errors(m);
    register_files(m);
    register_catalog(m);
    register_currency(m);
    register_import(m);
    register_checkpoint(m);
    register_interruption(m);
    register_spot(m);
    register_deadline(m);
    register_demand(m);
    register_strategy(m);
    register_cost(m);
    register_optimise(m);
    register_work(m);
    register_llm(m);
    register_plan(m);
    register_recommend(m);
    register_scenario(m);
    register_bills(m);
    register_study(m);
    // The stochastic price model (after register_plan: PricePaths, GenerationLaunch).
    register_price_dynamics(m);
    register_report(m);
    register_serving(m);
}
