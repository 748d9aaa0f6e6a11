#pragma once

// An OpenFOAM solver log read as PyFoam and foamMonitor read it: per time step (an iteration of
// a steady solver) each field's first initial residual, the Courant number, the continuity
// errors and the execution time; and how the run ended (End, "solution converged", a fatal
// error). Fed in chunks as the log grows. Pure; used by one thread at a time.

#include <cstddef>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace Eddy::Server {

class FoamLog final
{
public:
    static constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

    struct Step
    {
        double time = kNone; // "Time = 0.005" (steady: the iteration number)
        // The first initial residual of each field solved in this step, in solving order.
        std::vector<std::pair<std::string, double>> residuals;
        double courantMean = kNone;
        double courantMax = kNone;
        double continuity = kNone; // "sum local" of the step's last continuity line
        double executionSeconds = kNone;
        double largestResidual() const; // NaN/inf when a residual is; kNone without residuals
    };

    // The history kept for the result: at most kMaxHistory steps, evenly thinned.
    static constexpr std::size_t kMaxHistory = 2000;

    // Appends text; complete lines are parsed, a trailing partial line waits for the rest.
    void feed(std::string_view text);
    // One line without its newline.
    void line(std::string_view line);

    // The latest finished step (its ExecutionTime line seen); the one in progress only while
    // none has finished (a run that died in its first step).
    const Step &latest() const;
    int steps() const { return m_steps; }        // "Time =" lines seen
    double firstTime() const { return m_firstTime; } // the time the loop started at
    bool ended() const { return m_ended; }       // the solver printed "End"
    bool converged() const { return m_convergedIterations >= 0; }
    int convergedIterations() const { return m_convergedIterations; }
    // The first "FOAM FATAL ..." line and the one after it (the reason), empty when none.
    const std::string &fatal() const { return m_fatal; }
    const std::vector<Step> &history() const { return m_history; }

    // "time = 0.25 of 0.5 (50%), residual 8.6e-7 (Ux 2.3e-7, Uy 5.1e-7, p 8.6e-7), Courant max
    // 0.85, continuity 8.9e-9, execution 0.05 s" (transient), or for a steady solver
    // "iteration 120 of 2000, residual ..." without the Courant number. deltaT converts a steady
    // run's time to iterations. docs/openfoam.md documents the form.
    std::string progress(bool steady, double endTime, double deltaT) const;
    // " (Ux 2.3e-7, Uy 5.1e-7, p 8.6e-7)", or empty without residuals.
    static std::string fieldList(const Step &step);

private:
    void startStep(double time);
    void finishStep();
    void keep(const Step &step);

    std::string m_partial;
    Step m_current;
    Step m_finished;
    bool m_hasFinished = false;
    int m_steps = 0;
    double m_firstTime = kNone;
    bool m_ended = false;
    int m_convergedIterations = -1;
    bool m_fatalNext = false;
    std::string m_fatal;
    std::vector<Step> m_history;
    std::size_t m_historyStride = 1;
};

} // namespace Eddy::Server
